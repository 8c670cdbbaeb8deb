// Attack class: the "always allow" a card offers. The model picks the command, and the library
// turns it into a suggested rule the user may click. For a wrapper, shell or interpreter the
// prefix rule allows any command or any code afterwards (`Bash(sudo:*)` runs anything as root,
// `Bash(bash:*)` any script, `Bash(xargs:*)` any program): a harmless-looking `sudo ls` must not
// be a way to get one. Such lines are suggested exactly as written.
import { describe, expect, it } from 'vitest';
import { suggestPermissionUpdates } from 'agent-harness';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import { bashTool } from '../permissions/fixtures.js';

const rulesOf = (command: string) => suggestPermissionUpdates(bashTool, { command }).flatMap((update) => (update.type === 'addRules' ? update.rules.map(String) : []));

describe('attack: a suggested "always allow" that allows any command', () => {
  it.each([
    'sudo ls',
    '/usr/bin/sudo ls -la',
    "bash -c 'ls'",
    "sh -c 'git status'",
    'env ls',
    'xargs ls < files.txt',
    'find . -name "*.md"',
    'timeout 5 ls',
    'nice ls',
    "python3 -c 'print(1)'",
    'node -e "console.log(1)"',
    "perl -e 'print 1'",
    "awk '{print $1}' notes.md",
    'eval ls',
    'git status && sudo ls',
  ])('%j is suggested exactly, not as a prefix of the program', (command) => {
    const rules = rulesOf(command);
    expect(rules).toEqual([`Bash(${command})`]);
    const allowed = createRuleSet({ allow: rules });
    const program = command.split(' ')[0] === 'git' ? 'sudo' : command.split(' ')[0]!;
    expect(allowed.match('allow', bashTool, { command: `${program} rm -rf build` })).toBeUndefined();
  });

  it.each([
    ['git diff HEAD', ['Bash(git diff:*)']],
    ['npm test -- --watch', ['Bash(npm test:*)']],
    ['ls -la && wc -l notes.md', ['Bash(ls:*)', 'Bash(wc:*)']],
  ])('%j keeps its prefix rule', (command, expected) => {
    expect(rulesOf(command)).toEqual(expected);
  });
});
