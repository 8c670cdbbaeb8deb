import { describe, expect, it } from 'vitest';
import { ConfigurationError, DEFAULT_PRICES, estimateCost, type ModelPrice, type Usage } from 'agent-harness';

const usage: Usage = { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadInputTokens: 2_000_000, cacheCreationInputTokens: 400_000 };

describe('estimateCost', () => {
  it('prices each kind of token, the cache at 1.25× and 0.1× input unless the price says', () => {
    const price = DEFAULT_PRICES['claude-sonnet-4']!;
    expect(estimateCost(usage, price)).toBeCloseTo(3 + 1.5 + 0.4 * 3 * 1.25 + 2 * 3 * 0.1, 10);
    expect(estimateCost(usage, { input: 3, output: 15, cacheWrite: 0, cacheRead: 0 })).toBeCloseTo(4.5, 10);
  });

  it('a missing price (a model the table lacks) or a bad field is a ConfigurationError naming it, not a TypeError', () => {
    expect(() => estimateCost(usage, DEFAULT_PRICES['gpt-4o'] as ModelPrice)).toThrow(ConfigurationError);
    expect(() => estimateCost(usage, undefined as unknown as ModelPrice)).toThrow(/needs a price in US dollars per million tokens.*got undefined/);
    expect(() => estimateCost(usage, { input: '3', output: 15 } as unknown as ModelPrice)).toThrow(/price\.input must be a price/);
    expect(() => estimateCost(usage, { input: 3, output: 15, cacheRead: Number.NaN })).toThrow(/price\.cacheRead/);
    expect(() => estimateCost({ ...usage, outputTokens: undefined } as unknown as Usage, { input: 3, output: 15 })).toThrow(/usage\.outputTokens is not a count of tokens/);
    expect(() => estimateCost(null as unknown as Usage, { input: 3, output: 15 })).toThrow(/usage is missing/);
  });

  it('a negative price or count is refused, not priced as a negative cost', () => {
    expect(() => estimateCost(usage, { input: -3, output: 15 })).toThrow(/price\.input must be a price.*0 or more.*got -3/);
    expect(() => estimateCost(usage, { input: 3, output: 15, cacheWrite: -1 })).toThrow(/price\.cacheWrite/);
    expect(() => estimateCost({ ...usage, inputTokens: -5 }, { input: 3, output: 15 })).toThrow(/usage\.inputTokens/);
    expect(estimateCost({ inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 }, { input: 0, output: 0 })).toBe(0);
  });
});
