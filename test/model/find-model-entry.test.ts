import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_WINDOWS, DEFAULT_PRICES, contextWindowFor } from 'agent-harness';
import { findModelEntry } from '../../src/model/find-model-entry.js';

describe('findModelEntry', () => {
  it('takes the longest matching prefix, and matches a cloud id from its claude- on', () => {
    const table = { 'claude-': 1, 'claude-sonnet-4': 2, 'claude-sonnet-4-5': 3 };
    expect(findModelEntry('claude-sonnet-4-5-20250929', table)).toBe(3);
    expect(findModelEntry('us.anthropic.claude-sonnet-4-20250514-v1:0', table)).toBe(2);
    expect(findModelEntry('claude-haiku-4-5', table)).toBe(1);
    expect(findModelEntry('gpt-5', table)).toBeUndefined();
  });

  it('answers a table that changed between lookups with its new entries (only frozen tables are remembered)', () => {
    const table: Record<string, number> = { 'claude-': 1 };
    expect(findModelEntry('claude-opus-4-6', table)).toBe(1);
    table['claude-opus-4'] = 2;
    expect(findModelEntry('claude-opus-4-6', table)).toBe(2);
    delete table['claude-opus-4'];
    delete table['claude-'];
    expect(findModelEntry('claude-opus-4-6', table)).toBeUndefined();
  });

  it('gives the same answers from a frozen table the second time, misses included', () => {
    const table = Object.freeze({ 'claude-opus-4': 'opus' });
    for (let round = 0; round < 2; round++) {
      expect(findModelEntry('claude-opus-4-6', table)).toBe('opus');
      expect(findModelEntry('claude-haiku-4-5', table)).toBeUndefined();
    }
    // Past the memo's size, lookups are still answered (just not kept).
    for (let index = 0; index < 600; index++) expect(findModelEntry(`claude-opus-4-${index}`, table)).toBe('opus');
  });
});

describe('the built-in tables', () => {
  it('are frozen, entries too, so a lookup remembered from them cannot go stale', () => {
    expect(Object.isFrozen(DEFAULT_PRICES)).toBe(true);
    expect(Object.values(DEFAULT_PRICES).every((price) => Object.isFrozen(price))).toBe(true);
    expect(Object.isFrozen(DEFAULT_CONTEXT_WINDOWS)).toBe(true);
    expect(() => {
      (DEFAULT_PRICES as Record<string, unknown>)['claude-new'] = { input: 1, output: 1 };
    }).toThrow(TypeError);
  });

  it('are extended by the host\'s entries, which win over the built-in ones', () => {
    expect(contextWindowFor('claude-sonnet-4-5')).toBe(200_000);
    expect(contextWindowFor('claude-sonnet-4-5', { windows: { 'claude-sonnet-4-5': 1_000_000 } })).toBe(1_000_000);
    expect(contextWindowFor('claude-sonnet-4-5')).toBe(200_000);
  });
});
