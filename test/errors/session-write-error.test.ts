import { describe, expect, it } from 'vitest';
import { SessionLockedError } from '../../src/errors/session-locked-error.js';
import { SessionWriteError } from '../../src/errors/session-write-error.js';

describe('SessionWriteError', () => {
  it('wraps a lock error as one sentence per sentence: the lock file path ends in ".lock." once', () => {
    const locked = new SessionLockedError({ sessionId: 's1', file: '/data/s1.jsonl', lockFile: '/data/s1.jsonl.lock', holder: { pid: 7, hostname: 'h', createdAt: '2026-01-01T00:00:00.000Z' }, heldByThisProcess: false });
    expect(locked.message.endsWith('delete /data/s1.jsonl.lock.')).toBe(true);
    const error = new SessionWriteError('s1', locked);
    expect(error.message).not.toMatch(/\.\./);
    expect(error.message).toContain('delete /data/s1.jsonl.lock. The run stopped');
    expect(error.cause).toBe(locked);
  });

  it.each([
    ['disk full', 'disk full. The run stopped'],
    ['disk full.', 'disk full. The run stopped'],
    ['disk full...  ', 'disk full. The run stopped'],
    ['', 'Error. The run stopped'],
  ])('cause %j', (message, expected) => {
    expect(new SessionWriteError('s1', new Error(message)).message).toContain(`: ${expected}`);
  });
});
