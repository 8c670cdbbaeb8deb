import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, describePermissionUpdate, PERMISSION_MODES, type PermissionUpdate } from 'agent-harness';

const allow = (...rules: string[]): PermissionUpdate => ({ type: 'addRules', behavior: 'allow', rules, destination: 'session' });

describe('describePermissionUpdate', () => {
  it.each([
    ['Write(**)', 'Allow writing any file in this project'],
    ['Edit(src/**)', 'Allow editing any file in src/'],
    ['Read(docs/*.md)', 'Allow reading files matching docs/*.md'],
    ['Edit(src/app.ts)', 'Allow editing the file src/app.ts'],
    ['Write(/srv/shared/**)', 'Allow writing any file in /srv/shared/ (outside this project)'],
    ['Bash(npm test:*)', 'Allow running commands that start with `npm test`'],
    ['Bash(rm -rf build)', 'Allow running exactly the command `rm -rf build`'],
    ['Bash', 'Allow running any command'],
    ['Write', 'Allow writing any file, inside or outside this project'],
    ['Grep(src/**)', 'Allow searching any file in src/'],
    ['word_count', 'Allow using word_count'],
  ])('%s → %s', (rule, expected) => {
    expect(describePermissionUpdate(allow(rule))).toBe(expected);
  });

  it('names absolute paths inside the workspace relative to it', () => {
    expect(describePermissionUpdate(allow('Edit(/srv/project/src/**)'), { cwd: '/srv/project' })).toBe('Allow editing any file in src/');
    expect(describePermissionUpdate(allow('Edit(/srv/project/**)'), { cwd: '/srv/project' })).toBe('Allow editing any file in this project');
  });

  it('joins several rules, and words deny and ask rules', () => {
    expect(describePermissionUpdate(allow('Bash(git diff:*)', 'Bash(ls:*)'))).toBe('Allow running commands that start with `git diff` and running commands that start with `ls`');
    expect(describePermissionUpdate({ type: 'addRules', behavior: 'deny', rules: ['Bash(rm:*)'], destination: 'session' })).toBe('Always refuse running commands that start with `rm`');
    expect(describePermissionUpdate({ type: 'addRules', behavior: 'ask', rules: ['Write(.env)'], destination: 'session' })).toBe('Always ask before writing the file .env');
  });

  it('uses the tool it is given: its kind and rule target', () => {
    const publish = defineTool({ name: 'publish', description: '', inputSchema: z.object({ slug: z.string() }), kind: 'edit', ruleTarget: { field: 'slug', kind: 'path' }, execute: () => '' });
    expect(describePermissionUpdate(allow('publish(drafts/**)'), { tool: publish })).toBe('Allow changing with publish any file in drafts/');
    expect(describePermissionUpdate(allow('publish'), { tool: publish })).toBe('Allow changing with publish any file, inside or outside this project');
  });

  it('describes every mode, and a rule it cannot parse as written', () => {
    for (const mode of PERMISSION_MODES) {
      expect(describePermissionUpdate({ type: 'setMode', mode, destination: 'session' })).toMatch(/^[A-Z][a-z]/);
    }
    expect(describePermissionUpdate({ type: 'setMode', mode: 'acceptEdits', destination: 'session' })).toBe('Allow file edits in this project without asking, for the rest of this session');
    expect(describePermissionUpdate(allow('Bad rule('))).toBe('Allow `Bad rule(`');
  });

  it('words the other kinds, rule objects, and the host destination', () => {
    expect(describePermissionUpdate({ type: 'addRules', behavior: 'allow', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }], destination: 'session' })).toBe(
      'Allow running commands that start with `npm test`',
    );
    expect(describePermissionUpdate({ type: 'addRules', behavior: 'allow', rules: ['Write(docs/**)'], destination: 'host' })).toBe(
      'Allow writing any file in docs/, and keep it beyond this session',
    );
    expect(describePermissionUpdate({ type: 'replaceRules', behavior: 'deny', rules: ['Bash(rm:*)'], destination: 'session' })).toBe(
      'From now on, always refuse only running commands that start with `rm`',
    );
    expect(describePermissionUpdate({ type: 'replaceRules', behavior: 'allow', rules: [], destination: 'session' })).toBe('Drop the allow rules added in this session');
    expect(describePermissionUpdate({ type: 'removeRules', behavior: 'allow', rules: ['Edit(src/**)'], destination: 'session' })).toBe(
      'No longer allow without asking editing any file in src/',
    );
    expect(describePermissionUpdate({ type: 'addDirectories', directories: ['/srv/shared', '/srv/assets'], destination: 'session' })).toBe(
      'Let the tools work in /srv/shared and /srv/assets too',
    );
    expect(describePermissionUpdate({ type: 'removeDirectories', directories: ['/srv/shared'], destination: 'session' })).toBe('Stop the tools working in /srv/shared');
    expect(describePermissionUpdate({ type: 'setMode', mode: 'plan', destination: 'host' })).toBe('Switch to plan mode: read only, nothing is changed, and keep it beyond this session');
  });

  it('names tools and modes called after Object.prototype members by their own names', () => {
    expect(describePermissionUpdate({ type: 'addRules', behavior: 'allow', rules: ['constructor'], destination: 'session' })).toBe('Allow using constructor');
    expect(describePermissionUpdate({ type: 'addRules', behavior: 'allow', rules: ['toString(x)'], destination: 'session' })).not.toMatch(/function|native code/);
    expect(describePermissionUpdate({ type: 'setMode', mode: 'toString' as never, destination: 'session' })).toBe('Switch to the toString mode');
  });
});
