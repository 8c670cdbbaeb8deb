// The one shell parser, checked against real bash: for random command lines built from lists,
// && / ||, pipelines, negation, subshells, groups and quoted operators, a tiny interpreter over
// our tree must print exactly what bash prints. And quote removal must give bash's words.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShellCommand, type ShellCommandNode, type ShellList, type ShellPipeline } from '../../../src/permissions/shell/index.js';

const BASH = '/bin/bash';
const haveBash = existsSync(BASH);

function bash(command: string): string {
  try {
    return execFileSync(BASH, ['-c', command], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 });
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? '');
  }
}

/** Runs our tree: `echo WORDS` prints, `true` / `false` set the status; a pipeline shows only its last command's output. */
function interpret(list: ShellList): { output: string; status: number } {
  let output = '';
  let status = 0;
  const runCommand = (node: ShellCommandNode): { output: string; status: number } => {
    if (node.type === 'simple') {
      const [name, ...args] = node.command.words.map((word) => word.value);
      if (name === 'echo') return { output: `${args.join(' ')}\n`, status: 0 };
      if (name === 'false') return { output: '', status: 1 };
      return { output: '', status: 0 };
    }
    if (node.type === 'subshell' || node.type === 'group') return interpret(node.body);
    throw new Error(`unexpected ${node.type}`);
  };
  const runPipeline = (pipeline: ShellPipeline) => {
    let last = { output: '', status: 0 };
    for (const node of pipeline.commands) last = runCommand(node);
    return { output: last.output, status: pipeline.negated ? (last.status === 0 ? 1 : 0) : last.status };
  };
  for (const item of list) {
    let result = runPipeline(item.andOr.pipelines[0]!);
    let printed = result.output;
    item.andOr.operators.forEach((operator, index) => {
      if ((operator === '&&') === (result.status === 0)) {
        result = runPipeline(item.andOr.pipelines[index + 1]!);
        printed += result.output;
      }
    });
    output += printed;
    status = result.status;
  }
  return { output, status };
}

const plain = fc.stringMatching(/^[a-z0-9]{1,4}$/);
const special = fc.constantFrom(';', '&', '&&', '|', '||', '(', ')', '{', '}', '<', '>', ' ', '#', '!', '*', '?');
const singleQuoted = fc.array(fc.oneof(plain, special), { minLength: 1, maxLength: 3 }).map((parts) => `'${parts.join('')}'`);
const doubleQuoted = fc.array(fc.oneof(plain, special), { minLength: 1, maxLength: 3 }).map((parts) => `"${parts.join('')}"`);
const escaped = fc.tuple(plain, fc.constantFrom(';', '&', '|', '(', ')', '<', '>', ' ', '#', '"', "'"), plain).map(([a, c, b]) => `${a}\\${c}${b}`);
const word = fc.oneof({ weight: 3, arbitrary: plain }, singleQuoted, doubleQuoted, escaped);
const simple = fc.oneof(
  { weight: 3, arbitrary: fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => `echo ${words.join(' ')}`) },
  fc.constantFrom('true', 'false'),
);

const { list } = fc.letrec<{ list: string; command: string; pipeline: string; andOr: string }>((tie) => ({
  command: fc.oneof(
    { weight: 5, arbitrary: simple },
    tie('list').map((inner) => `( ${inner} )`),
    tie('list').map((inner) => `{ ${inner}; }`),
  ),
  pipeline: fc.tuple(fc.boolean(), fc.array(tie('command'), { minLength: 1, maxLength: 3 })).map(([negated, commands]) => `${negated ? '! ' : ''}${commands.join(' | ')}`),
  andOr: fc.tuple(tie('pipeline'), fc.array(fc.tuple(fc.constantFrom('&&', '||'), tie('pipeline')), { maxLength: 3 })).map(([first, rest]) => [first, ...rest.flat()].join(' ')),
  list: fc.array(tie('andOr'), { minLength: 1, maxLength: 3 }).chain((items) => fc.constantFrom('; ', '\n', ' ;').map((separator) => items.join(separator))),
}));

describe.skipIf(!haveBash)('parseShellCommand against real bash', () => {
  it('property: the tree runs the way bash runs the line (structure and quote removal)', { timeout: 180_000 }, () => {
    fc.assert(
      fc.property(list, (line) => {
        const parsed = parseShellCommand(line);
        expect(parsed.error, line).toBeUndefined();
        expect(interpret(parsed.tree).output, line).toBe(bash(line));
      }),
      { numRuns: 150 },
    );
  });

  it('property: words after quote removal are the words bash passes to a program', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (words) => {
        const line = `printf '%s\\0' ${words.join(' ')}`;
        const parsed = parseShellCommand(line);
        const ours = parsed.commands[0]!.words.slice(2).map((w) => w.value);
        const globbed = parsed.commands[0]!.words.slice(2).some((w) => w.hasGlob);
        if (globbed) return; // bash would expand the glob against the current directory
        expect(ours, line).toEqual(bash(line).split('\0').slice(0, -1));
      }),
      { numRuns: 150 },
    );
  });

  const failClosed = ['echo "unterminated', "echo 'open", 'echo $(ls', 'ls &&', 'ls |', '| ls', '&& ls', 'ls ) x', '( ls', '{ ls', 'cat <', 'echo `x', "echo $'x", 'case x in', 'f() {'];
  it.each(failClosed)('%j: bash rejects it and so does the parser (an error, never a guess)', (line) => {
    expect(parseShellCommand(line).error).toBeDefined();
    expect(() => execFileSync(BASH, ['-n', '-c', line], { stdio: 'ignore' })).toThrow();
  });

  it.each(['a=(1 2)', 'a=(1 2); cp "${a[@]}" /tmp', 'coproc x { ls; }'])('%j: valid bash it does not model is an error or unsupported (fail closed)', (line) => {
    const parsed = parseShellCommand(line);
    expect(parsed.error !== undefined || parsed.unsupported.length > 0).toBe(true);
  });

  it('nesting is bounded: a deep line is an error, not a stack overflow', () => {
    expect(parseShellCommand(`${'( '.repeat(5000)}ls${' )'.repeat(5000)}`).error).toMatch(/nests more than/);
    expect(parseShellCommand(`${'{ '.repeat(5000)}ls;${' }'.repeat(5000)}`).error).toMatch(/nests more than/);
  });

  // No time asserted: a quadratic parse takes minutes on these lines and fails on the test's timeout.
  it('stays fast on long lines', () => {
    expect(parseShellCommand(`${'echo a && '.repeat(20_000)}echo b`).error).toBeUndefined();
    expect(parseShellCommand(`echo "${'x'.repeat(200_000)}"`).error).toBeUndefined();
  }, 30_000);
});
