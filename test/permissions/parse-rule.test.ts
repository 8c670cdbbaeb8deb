import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { formatRule, parseRule } from '../../src/permissions/parse-rule.js';

describe('parseRule', () => {
  it.each([
    ['Read', { toolName: 'Read' }],
    ['Bash(npm test:*)', { toolName: 'Bash', pattern: 'npm test:*' }],
    ['Edit(src/**)', { toolName: 'Edit', pattern: 'src/**' }],
    ['  Edit( docs/*.md )  ', { toolName: 'Edit', pattern: 'docs/*.md' }],
    ['Bash(echo (hi))', { toolName: 'Bash', pattern: 'echo (hi)' }],
    ['mcp__server__tool', { toolName: 'mcp__server__tool' }],
  ])('parses %s', (rule, expected) => {
    expect(parseRule(rule)).toEqual(expected);
  });

  it.each(['', 'Bash(', 'Bash()', 'Bash(npm', 'Bash npm', 'Ba sh', '(x)', 'Bash(:*)', 'Bash(x)y'])(
    'rejects %j with a ConfigurationError naming it and the right form',
    (rule) => {
      let error: unknown;
      try {
        parseRule(rule);
      } catch (caught) {
        error = caught;
      }
      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(JSON.stringify(rule));
      expect((error as Error).message).toMatch(/Tool|Bash\(prefix:\*\)/);
    },
  );

  it('rejects non-strings', () => {
    expect(() => parseRule(42 as unknown as string)).toThrow(ConfigurationError);
  });

  it('formats back', () => {
    expect(formatRule(parseRule('Bash(npm test:*)'))).toBe('Bash(npm test:*)');
    expect(formatRule(parseRule('Read'))).toBe('Read');
  });
});
