import fs from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyBashCommand } from '../../../src/node/workspace-tools/classify-bash-command.js';
import { resolveWorkspaceContext } from '../../../src/node/workspace-tools/workspace-context.js';
import { createBashTool } from '../../../src/node/workspace-tools/bash-tool.js';
import { fakeAgent, makeTempDir, outcomeOf, snapshotTree } from './helpers.js';

// Relative names only, never `..` or absolute paths: a misclassified command can only touch its scratch directory.
const file = fc.constantFrom('a.txt', 'b.txt', 'sub/c.txt', 'missing.txt', "'a.txt'", '"b.txt"', 'sub', '.');
const glob = fc.constantFrom('*', '*.txt', 'sub/*', '-*', '*o*');
const operand = fc.oneof(file, file, glob);
const operands = fc.array(operand, { minLength: 0, maxLength: 3 }).map((list) => list.join(' '));
const text = fc.constantFrom('hello', '"a > b"', "'x; touch pwned'", 'x\\;touch\\ y', '"$(echo hi)"', '"quoted text"', 'a\\>b');

const reader: fc.Arbitrary<string> = fc.oneof(
  operands.map((args) => `ls ${args}`),
  fc.tuple(fc.constantFrom('-la', '-R', '-1', ''), operands).map(([flag, args]) => `ls ${flag} ${args}`),
  operands.map((args) => `cat ${args}`),
  fc.tuple(fc.constantFrom('head -n 1', 'tail -n 2', 'wc -l', 'wc -c', 'stat', 'du -s', 'cut -c1-3', 'nl', 'od -c', 'sha256sum', 'file'), operands).map(([cmd, args]) => `${cmd} ${args}`),
  fc.tuple(fc.constantFrom('-n', '-r', '-i', '-rn', '-c', ''), fc.constantFrom('alpha', "'b.*'", '"x y"'), operands).map(([flag, pattern, args]) => `grep ${flag} ${pattern} ${args}`),
  fc.tuple(fc.constantFrom('', "-name '*.txt'", '-type f', '-type d', "-name '-delete'"), fc.constantFrom('', '-print', '-newer a.txt')).map(([a, b]) => `find . ${a} ${b}`),
  fc.tuple(fc.constantFrom('sort', 'sort -r', 'uniq', 'uniq -c', 'sort -u'), operands).map(([cmd, args]) => `${cmd} ${args}`),
  text.map((words) => `echo ${words}`),
  text.map((words) => `printf '%s\\n' ${words}`),
  // Commands with dangerous options, given a bare glob: in a trap layout it expands to an option.
  fc.tuple(fc.constantFrom('find', 'sort', 'uniq', 'sort -r', 'ls', 'cat', 'rg x', 'git diff'), fc.constantFrom('*', '*', '-*')).map(([cmd, pattern]) => `${cmd} ${pattern}`),
  fc.constantFrom('pwd', 'true', 'false', 'git status', 'git log -1', 'git diff', 'git branch', 'test -f a.txt', '[ -d sub ]', 'diff a.txt b.txt', 'cmp a.txt b.txt', 'cd sub && ls', 'basename sub/c.txt', 'date +%s', 'env', 'which ls', 'tree -a', 'rg alpha', 'rg --files'),
);

const writer: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'touch new.txt', 'rm a.txt', 'rm -f missing.txt b.txt', 'mkdir d', 'cp a.txt copy.txt', 'mv a.txt moved.txt', 'tee out.txt',
    'sed -i s/alpha/omega/ a.txt', 'find . -delete', 'find . -name b.txt -delete', "find . -name a.txt -exec touch {} +", 'find . -fprint out.txt',
    'sort -o out.txt a.txt', 'sort -oout.txt a.txt', 'sort --out=o.txt a.txt', 'sort *', 'uniq a.txt out.txt', 'uniq *', 'find *', 'chmod 600 a.txt',
    'ln -s a.txt link', 'truncate -s 0 a.txt', 'dd if=a.txt of=out.txt', 'git init', ': > a.txt', 'FOO=1 touch env.txt',
    "sh -c 'touch sh.txt'", 'echo new.txt | xargs touch', 'eval touch eval.txt', 'date -s 0', 'tree -o tree.txt', 'file -C -m a.txt',
    'git branch newbranch', 'env touch env2.txt', 'command touch cmd.txt', "rg --pre 'touch' alpha",
  ),
  fc.tuple(fc.constantFrom('echo x', 'ls', 'cat a.txt'), fc.constantFrom('> out.txt', '>> a.txt', '>| out.txt', '2> err.txt', '&> all.txt', '<> rw.txt', '1>out1.txt')).map(([cmd, redirect]) => `${cmd} ${redirect}`),
);

const harmlessRedirect = fc.constantFrom('', '', '', ' 2>/dev/null', ' 2>&1', ' >/dev/null', ' < a.txt', ' &>/dev/null');

const simple: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(reader, harmlessRedirect).map(([cmd, redirect]) => cmd + redirect) },
  { weight: 2, arbitrary: writer },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('echo $(%s)', 'echo `%s`', 'cat <(%s)', 'ls "$(%s)"', 'echo "`%s`"'), writer).map(([shape, cmd]) => shape.replace('%s', cmd)) },
);

const command = fc
  .tuple(simple, fc.array(fc.tuple(fc.constantFrom(' ; ', ' && ', ' || ', ' | ', '\n'), simple), { maxLength: 2 }))
  .map(([first, rest]) => first + rest.map(([op, next]) => op + next).join(''));

/** Scratch layouts: the usual files, or a single file whose name a bare `*` turns into an option. */
type Layout = 'standard' | 'find-trap' | 'sort-trap';
const layout = fc.constantFrom<Layout>('standard', 'standard', 'standard', 'find-trap', 'sort-trap');

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => fs.rm(root, { recursive: true, force: true })));
});

async function scratch(kind: Layout): Promise<string> {
  const root = await makeTempDir('ws-classify-');
  roots.push(root);
  // `find *` becomes `find -delete`; `sort *` becomes `sort --output=pwned`.
  if (kind === 'find-trap') await fs.writeFile(path.join(root, '-delete'), '');
  if (kind === 'sort-trap') await fs.writeFile(path.join(root, '--output=pwned'), '');
  if (kind !== 'standard') return root;
  await fs.mkdir(path.join(root, 'sub'));
  await fs.writeFile(path.join(root, 'a.txt'), 'alpha\nbeta\n');
  await fs.writeFile(path.join(root, 'b.txt'), 'b\na\nb\n');
  await fs.writeFile(path.join(root, 'sub', 'c.txt'), 'gamma\n');
  return root;
}

describe('classifyBashCommand, property', () => {
  it('nothing classified read-only changes the scratch directory when run', { timeout: 120_000 }, async () => {
    let readOnlyRuns = 0;
    let writingSamples = 0;
    await fc.assert(
      fc.asyncProperty(command, layout, async (line, kind) => {
        const verdict = classifyBashCommand(line);
        if (!verdict.readOnly) {
          writingSamples++;
          return;
        }
        readOnlyRuns++;
        const root = await scratch(kind);
        const bash = createBashTool(resolveWorkspaceContext({ cwd: root, env: { PATH: process.env.PATH, HOME: root, LC_ALL: 'C' } }));
        const before = await snapshotTree(root);
        const raw = await bash.execute({ input: { command: line, timeout: 5000 }, signal: new AbortController().signal, toolUseId: 't', agent: fakeAgent() });
        expect(outcomeOf(raw).text).not.toMatch(/timed out/);
        expect(await snapshotTree(root), `${line}\n(${verdict.reason})`).toEqual(before);
        await fs.rm(root, { recursive: true, force: true });
      }),
      { numRuns: 150 },
    );
    // The grammar must exercise both sides.
    expect(readOnlyRuns).toBeGreaterThan(25);
    expect(writingSamples).toBeGreaterThan(25);
  });
});
