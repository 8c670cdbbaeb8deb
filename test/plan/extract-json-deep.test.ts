import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractJson } from 'agent-harness';

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('extractJson on deeply nested JSON', () => {
  it('refuses a value nested past 64 levels, with an answer for the model, instead of returning what JSON.stringify cannot write', () => {
    for (const text of [nested(20_000), `Here: ${nested(20_000)}`, '```json\n' + nested(100) + '\n```']) {
      const result = extractJson(text);
      expect(result.ok, text.slice(0, 40)).toBe(false);
    }
    const result = extractJson(nested(20_000));
    expect(result).toMatchObject({ ok: false, reason: 'invalid-json' });
    expect(!result.ok && result.error).toMatch(/more than 64 levels deep.*less nesting/);
  });

  it('a permissive schema does not let it through either', () => {
    expect(extractJson(nested(1_000), { schema: z.unknown() }).ok).toBe(false);
  });

  it('64 levels still parse', () => {
    const result = extractJson(nested(64));
    expect(result.ok).toBe(true);
    expect(() => JSON.stringify(result.ok && result.value)).not.toThrow();
  });
});
