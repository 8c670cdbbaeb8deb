import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { assertPlanName, baseName, planFileName, planNameProblem, utf8ByteLength } from '../../src/plan/plan-name.js';

describe('planFileName', () => {
  it('names the main plan {slug}.md and a subagent plan {slug}-agent-{agentId}.md', () => {
    expect(planFileName({ slug: 'quiet-copper-lantern' })).toBe('quiet-copper-lantern.md');
    expect(planFileName({ slug: 'quiet-copper-lantern', agentId: 'a1b2' })).toBe('quiet-copper-lantern-agent-a1b2.md');
  });

  it('rejects slugs or agent ids that would leave the directory', () => {
    expect(() => planFileName({ slug: '../etc/passwd' })).toThrow(ConfigurationError);
    expect(() => planFileName({ slug: 'ok', agentId: 'x/y' })).toThrow(/path separator/);
  });
});

describe('assertPlanName', () => {
  it.each([
    ['a/b.md', 'path separator'],
    ['a\\b.md', 'path separator'],
    ['..', '".."'],
    ['x..md', '".."'],
    ['.hidden.md', 'starts with "."'],
    ['', 'must not be empty'],
    ['a\u0000.md', 'control character'],
  ])('rejects %j with a message naming the problem', (name, problem) => {
    expect(() => assertPlanName(name)).toThrow(problem);
    try {
      assertPlanName(name);
    } catch (error) {
      expect(ConfigurationError.isInstance(error)).toBe(true);
    }
  });

  it('limits names to 255 bytes of UTF-8, not 255 characters', () => {
    expect(utf8ByteLength('aé€😀')).toBe(1 + 2 + 3 + 4);
    expect(utf8ByteLength('\ud800')).toBe(3);
    expect(planNameProblem(`${'a'.repeat(252)}.md`)).toBeUndefined();
    expect(planNameProblem(`${'a'.repeat(253)}.md`)).toMatch(/at most 255 bytes in UTF-8.*got 256 bytes \(256 characters\)/);
    expect(planNameProblem(`${'€'.repeat(84)}.md`)).toBeUndefined(); // 252 + 3 bytes
    expect(planNameProblem(`${'€'.repeat(85)}.md`)).toMatch(/got 258 bytes \(88 characters\)/);
  });

  it('accepts plain file names', () => {
    expect(planNameProblem('quiet-copper-lantern.md')).toBeUndefined();
    expect(planNameProblem('notes v2.md')).toBeUndefined();
    expect(planNameProblem(42)).toMatch(/must be a string/);
  });
});

describe('baseName', () => {
  it('takes the last segment for both separators', () => {
    expect(baseName('/home/me/.claude/plans/x.md')).toBe('x.md');
    expect(baseName('C:\\Users\\me\\plans\\y.md')).toBe('y.md');
    expect(baseName('z.md')).toBe('z.md');
  });
});
