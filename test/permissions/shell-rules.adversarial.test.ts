// Rules read commands through the one shell parser (issue 10): an allow rule vouches only for a
// line whose every command it allows; a deny or ask rule catches its command wherever it runs,
// and a line the parser cannot read is asked, never trusted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import { parseShellCommand } from '../../src/permissions/shell/index.js';
import { splitShellCommand } from '../../src/permissions/split-shell-command.js';
import { bashTool } from './fixtures.js';

const rules = createRuleSet({ allow: ['Bash(npm test:*)', 'Bash(git status)'], deny: ['Bash(rm:*)', 'Bash(curl:*)'] });
const allow = (command: string) => rules.match('allow', bashTool, { command });
const deny = (command: string) => rules.match('deny', bashTool, { command });
const uncheckable = (command: string) => rules.uncheckable('deny', bashTool, { command });

const notAllowed = [
  'npm test; rm -rf x', 'npm test && curl evil', 'npm test || rm x', 'npm test | sh', 'npm test & rm x', 'npm test\nrm x', 'npm test\r\nrm x',
  'npm test $(rm x)', 'npm test `rm x`', 'npm test <(rm x)', 'npm test >(rm x)', 'npm test > out', 'npm test < in', 'npm test 1>x',
  '(npm test)', '{ npm test; }', '(npm test; rm x)', 'npm test #\nrm x', 'npm test \\\nrm x', 'if npm test; then rm x; fi', 'f() { rm x; }; npm test',
  'npm test "$(rm x)"', "npm test '$(rm x)'; rm x", 'npm test ${X:-$(rm x)}', 'npm test <<EOF\n$(rm x)\nEOF', 'npm test "unterminated', 'npm test ) (',
  'npm  test; git status; rm x', 'git status && npm test && curl x', 'npm test |& rm x', 'npm test;rm x', 'npm test&&rm x', 'npm test||rm x', 'npm tests',
  'npm', 'NODE_OPTIONS=--require=/tmp/x.js npm test', 'command npm test', 'sudo npm test', 'env npm test', '! npm test',
];

const denied = [
  'rm x', 'ls; rm x', 'ls && rm x', 'ls || rm x', 'ls | rm x', 'ls & rm x', '(rm x)', '{ rm x; }', 'if true; then rm x; fi', 'while true; do rm x; done',
  'for f in a; do rm "$f"; done', 'case a in a) rm x;; esac', 'f() { rm x; }; f', 'function f { rm x; }; f', 'echo $(rm x)', 'echo `rm x`', 'echo "$(rm x)"',
  'diff <(rm x) y', 'sudo rm x', 'env rm x', 'FOO=1 rm x', 'command rm x', '\\rm x', "'rm' x", '"rm" x', 'r""m x', '/bin/rm x', './rm x', 'nice rm x',
  'time rm x', '! rm x', 'x=$(rm y)', 'curl x | sh', 'echo hi > f; curl x', 'cat <<EOF\n$(rm x)\nEOF',
];

const askedNotDenied = ['$CMD x', '${X}m x', 'echo "unterminated; rm x', "eval 'r''m x'", 'a=(1 2); rm x'];

describe('rules through the one shell parser', () => {
  it.each(notAllowed)('allow rules do not vouch for %j', (command) => {
    expect(allow(command)).toBeUndefined();
  });

  it.each(denied)('deny rule catches %j', (command) => {
    expect(deny(command)).toBeDefined();
  });

  it.each(askedNotDenied)('%j cannot be checked: deny or ask, never trusted', (command) => {
    expect(deny(command) !== undefined || uncheckable(command) !== undefined).toBe(true);
    expect(allow(command)).toBeUndefined();
  });

  it('allowed lines are allowed', () => {
    for (const command of ['npm test', 'npm test -- --watch', 'npm test && git status', 'npm test 2>&1 | npm test', 'npm test; git status']) {
      expect(allow(command), command).toBeDefined();
    }
  });

  it('property: an allow rule matches only when every command the parser finds is allowed', () => {
    const segment = fc.constantFrom('npm test', 'npm test -- -u', 'git status', 'rm x', 'curl x', 'ls', 'echo hi');
    const operator = fc.constantFrom('; ', ' && ', ' || ', ' | ', ' & ', '\n');
    const line = fc.tuple(segment, fc.array(fc.tuple(operator, segment), { maxLength: 4 }), fc.constantFrom('', 'sub', 'group')).map(([first, rest, wrap]) => {
      const text = first + rest.map(([op, s]) => op + s).join('');
      return wrap === 'sub' ? `(${text})` : wrap === 'group' ? `{ ${text}; }` : text;
    });
    fc.assert(
      fc.property(line, (command) => {
        const commands = parseShellCommand(command).commands.map((simple) => simple.text);
        const everyAllowed = commands.every((text) => text === 'git status' || text.startsWith('npm test'));
        if (allow(command) !== undefined) expect(everyAllowed, command).toBe(true);
        if (commands.some((text) => text.startsWith('rm') || text.startsWith('curl'))) expect(deny(command), command).toBeDefined();
      }),
      { numRuns: 400 },
    );
  });

  it('property: splitShellCommand and the classifier read the same commands (one parser)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (command) => {
        const parsed = parseShellCommand(command);
        const segments = splitShellCommand(command);
        if (parsed.error !== undefined) return segments.length <= 1 && segments.every((segment) => segment.opaque);
        return segments.map((segment) => segment.text).join('\n') === parsed.commands.map((simple) => simple.text).join('\n');
      }),
      { numRuns: 500 },
    );
  });

  it('property: the parser never throws, whatever the input', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200, unit: fc.constantFrom('a', ' ', ';', '&', '|', '(', ')', '{', '}', '<', '>', "'", '"', '\\', '$', '`', '#', '\n', 'case', 'in', 'esac', 'if', 'then', 'fi', '((', '[[', ']]', '*', '~') }), (command) => {
      parseShellCommand(command);
    }), { numRuns: 1000 });
  });
});
