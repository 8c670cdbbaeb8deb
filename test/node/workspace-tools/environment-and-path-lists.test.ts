// Environment dumps are secret reads, and commands that read the paths to open from a file are
// not read-only (issue 10): in plan mode none of them runs unasked.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { classifyBashCommand } from '../../../src/node/workspace-tools/classify-bash-command.js';
import type { Tool } from '../../../src/tools/types.js';
import { makeTempDir, planModeDecision, toolNamed } from './helpers.js';

let work: string;
let bash: Tool;
beforeAll(async () => {
  work = await makeTempDir('ws-env-dumps-');
  await fs.writeFile(path.join(work, 'names.txt'), '../../etc/passwd\n');
  await fs.writeFile(path.join(work, 'sums.txt'), '0000  ../../etc/passwd\n');
  bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

const plan = (command: string) => planModeDecision(bash, command, work);

const environmentDumps = [
  'printenv', 'printenv ANTHROPIC_API_KEY', 'env', 'env -0', 'env | grep KEY', 'printenv | sort', 'export', 'export -p', 'set', 'set | grep KEY',
  'declare', 'declare -x', 'declare -p', 'declare -p ANTHROPIC_API_KEY', 'typeset -x', 'readonly -p', 'local', 'compgen -v', 'compgen -e', 'compgen -A variable',
  'alias', 'cat /proc/self/environ', 'cat /proc/1/environ', 'tr "\\0" "\\n" < /proc/self/environ', 'strings /proc/self/environ', 'echo $ANTHROPIC_API_KEY',
  'echo "${ANTHROPIC_API_KEY}"', 'ls && printenv', 'git status; env',
];

const pathLists = [
  'file -f names.txt', 'file --files-from names.txt', 'file --files-from=names.txt', 'file -bf names.txt', 'sha256sum -c sums.txt', 'sha256sum --check sums.txt',
  'sha1sum -c sums.txt', 'sha512sum --ch sums.txt', 'md5sum -c sums.txt', 'b2sum -c sums.txt', 'cksum --check sums.txt', 'tar -T names.txt -cf -',
  'tar --files-from=names.txt -cf -', 'xargs -a names.txt cat', 'xargs --arg-file=names.txt cat', 'rsync --files-from=names.txt . /tmp/x', 'cpio -o < names.txt',
  'wc --files0-from=names.txt', 'du --files0-from=names.txt', 'sort --files0-from=names.txt', 'find -files0-from names.txt', 'tree --fromfile names.txt',
];

describe('environment dumps are secret reads', () => {
  it.each(environmentDumps)('%j is not read-only, and plan mode does not run it unasked', async (command) => {
    expect(classifyBashCommand(command).readOnly).toBe(false);
    expect(await plan(command)).not.toBe('allow');
  });

  it('the reason names the environment', () => {
    expect(classifyBashCommand('printenv').reason).toMatch(/environment, whose variables may hold secrets/);
    expect(classifyBashCommand('export -p').reason).toMatch(/environment/);
  });
});

describe('commands that read a list of paths from a file', () => {
  it.each(pathLists)('%j is not read-only, and plan mode does not run it unasked', async (command) => {
    expect(classifyBashCommand(command).readOnly).toBe(false);
    expect(await plan(command)).not.toBe('allow');
  });

  it('the same commands without a list stay read-only', async () => {
    for (const command of ['file notes.txt', 'sha256sum names.txt', 'md5sum names.txt sums.txt', 'wc -l names.txt', 'du -sh .', 'tree -L 1']) {
      expect(classifyBashCommand(command).readOnly, command).toBe(true);
      expect(await plan(command), command).toBe('allow');
    }
  });
});
