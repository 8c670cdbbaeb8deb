import { ruleString } from '../../src/permissions/rule-input.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import { suggestPermissionUpdates } from '../../src/permissions/suggest-permission-updates.js';
import type { PermissionUpdate } from '../../src/types/permission.js';
import { bashTool, editTool, makeTool, readTool } from './fixtures.js';

const allowRules = (updates: PermissionUpdate[]) => updates.flatMap((update) => (update.type === 'addRules' ? update.rules.map(ruleString) : []));

describe('suggestPermissionUpdates', () => {
  it.each([
    ['npm test -- --watch', ['Bash(npm test:*)']],
    ['git diff HEAD', ['Bash(git diff:*)']],
    ['git', ['Bash(git:*)']],
    ['git --version', ['Bash(git:*)']],
    ['ls -la', ['Bash(ls:*)']],
    ['cat notes.txt', ['Bash(cat:*)']],
    ['npx vitest run', ['Bash(npx vitest:*)']],
    ['npm test && git status', ['Bash(npm test:*)', 'Bash(git status:*)']],
    ['npm test; npm test -- -u', ['Bash(npm test:*)']],
    ['echo $(whoami)', ['Bash(echo $(whoami))']],
    ['FOO=1 make', ['Bash(FOO=1 make)']],
    ['   ', ['Bash']],
  ])('command %j → %j', (command, rules) => {
    const updates = suggestPermissionUpdates(bashTool, { command });
    expect(updates).toEqual([{ type: 'addRules', behavior: 'allow', rules, destination: 'session' }]);
  });

  it('suggests the file directory for path tools, plus acceptEdits for edit tools', () => {
    expect(suggestPermissionUpdates(editTool, { file_path: 'src/a/b.ts' })).toEqual([
      { type: 'addRules', behavior: 'allow', rules: ['Edit(src/a/**)'], destination: 'session' },
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
    ]);
    expect(allowRules(suggestPermissionUpdates(editTool, { file_path: '/w/src/a.ts' }, { cwd: '/w' }))).toEqual(['Edit(src/**)']);
    expect(allowRules(suggestPermissionUpdates(readTool, { file_path: 'README.md' }))).toEqual(['Read(**)']);
    expect(allowRules(suggestPermissionUpdates(readTool, { file_path: '/etc/hosts' }, { cwd: '/w' }))).toEqual(['Read(/etc/**)']);
    expect(allowRules(suggestPermissionUpdates(readTool, { file_path: '/hosts' }, { cwd: '/w' }))).toEqual(['Read']);
    expect(allowRules(suggestPermissionUpdates(readTool, { file_path: 'we{ird}/a' }))).toEqual(['Read']);
    expect(suggestPermissionUpdates(readTool, { file_path: 'a' }).some((update) => update.type === 'setMode')).toBe(false);
  });

  it('suggests the bare tool name for tools without a rule target', () => {
    expect(suggestPermissionUpdates(makeTool({ name: 'Fetch' }), { value: 'x' })).toEqual([
      { type: 'addRules', behavior: 'allow', rules: ['Fetch'], destination: 'session' },
    ]);
  });

  it('property: an echoed suggestion allows the call it was made for', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9._-]{0,6}$/);
    const simpleCommand = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));
    const command = fc.array(simpleCommand, { minLength: 1, maxLength: 3 }).chain((parts) =>
      fc.constantFrom(' && ', '; ', ' | ').map((operator) => parts.join(operator)),
    );
    fc.assert(
      fc.property(command, (line) => {
        const rules = createRuleSet({ allow: allowRules(suggestPermissionUpdates(bashTool, { command: line })) });
        expect(rules.match('allow', bashTool, { command: line })).toBeDefined();
      }),
    );
    const path = fc.array(word, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'));
    fc.assert(
      fc.property(path, fc.boolean(), (relative, absolute) => {
        const input = { file_path: absolute ? `/w/${relative}` : relative };
        const rules = createRuleSet({ allow: allowRules(suggestPermissionUpdates(editTool, input, { cwd: '/w' })) });
        expect(rules.match('allow', editTool, input, { cwd: '/w' })).toBeDefined();
      }),
    );
  });
});
