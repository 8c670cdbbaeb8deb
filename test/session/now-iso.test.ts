import { afterEach, describe, expect, it, vi } from 'vitest';
import { nowIso } from '../../src/session/now-iso.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('nowIso: the time as an ISO string, formatted once per millisecond', () => {
  it("is new Date().toISOString() of the clock's millisecond, and follows the clock (a fake one too)", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-12-06T10:00:00.000Z'));
    expect(nowIso()).toBe('2026-12-06T10:00:00.000Z');
    expect(nowIso()).toBe('2026-12-06T10:00:00.000Z');
    vi.advanceTimersByTime(1);
    expect(nowIso()).toBe('2026-12-06T10:00:00.001Z');
    vi.setSystemTime(new Date('2025-01-01T00:00:00.000Z'));
    expect(nowIso()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('matches the real clock', () => {
    const before = Date.now();
    const stamped = Date.parse(nowIso());
    expect(stamped).toBeGreaterThanOrEqual(before);
    expect(stamped).toBeLessThanOrEqual(Date.now());
  });
});
