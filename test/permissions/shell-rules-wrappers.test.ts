// A deny rule on a command holds behind wrappers, quoting and the ways bash renames a command
// (permissions hardening round: `env -S'git push'`, aliases and git aliases ran unasked).
import { describe, expect, it } from 'vitest';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import { bashTool } from './fixtures.js';

const rules = createRuleSet({ deny: ['Bash(git push:*)'] });
const caught = (command: string) => rules.match('deny', bashTool, { command }) ?? rules.uncheckable('deny', bashTool, { command });

const held = [
  'command git push', 'command -p git push', 'builtin git push', 'exec git push', 'exec -a x git push', 'nohup git push', 'timeout 5 git push',
  'timeout -s KILL 5 git push', 'nice -n 5 git push', 'stdbuf -o0 git push', 'g"i"t push', '\\git push', 'g\\it push', "'git' push",
  "env -S 'git push'", "env -S'git push'", "env --split-string='git push'", "env -iS'git push'", "bash -c 'git push'", '$(echo git) push', '`echo git` push',
  'bash <<EOF\ngit push\nEOF', 'cat <(git push)', 'git --no-pager push', 'git -C. push', 'git pu\\\nsh', '/usr/bin/git push', 'sudo -u x git push',
  'find . -exec git push \\;', 'git$IFS push', "git p''ush", '{git,push}', 'x=git; $x push', "eval 'git pu''sh'", 'source <(echo git push)',
  // Aliases rename a command: a line that defines one is asked.
  "bash -O expand_aliases -c 'alias g=git\ng push'", 'shopt -s expand_aliases\nalias g=git\ng push', "alias g='git push'\ng",
  // git's own aliases, from the command line or written to its config in the same line.
  'git -c alias.p=push p', "git -c 'alias.p=!git push' p", 'git --config-env=alias.p=CMD p', 'git config alias.p push; git p',
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0=push git p', "GIT_CONFIG_PARAMETERS=\"'alias.p=push'\" git p",
];

const free = ['git status', 'git help push', 'echo alias', 'cat alias.txt', 'git log --grep=push', 'git config user.name x'];

describe('deny rules behind wrappers, quotes and renames', () => {
  it.each(held)('%j is denied or asked', (command) => {
    expect(caught(command)).toBe('Bash(git push:*)');
  });

  it.each(free)('%j is not caught', (command) => {
    expect(caught(command)).toBeUndefined();
  });
});
