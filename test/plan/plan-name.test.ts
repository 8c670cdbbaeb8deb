import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { assertPlanName, baseName, planFileName, planNameProblem } from '../../src/plan/plan-name.js';

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
