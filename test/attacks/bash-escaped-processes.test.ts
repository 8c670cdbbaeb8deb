import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGone } from '../process-helpers.js';
import { workspaceTools } from '../../src/node/workspace-tools.js';
import type { Tool } from '../../src/tools/types.js';
import { callTool, makeTempDir, toolNamed, waitUntil } from '../node/workspace-tools/helpers.js';

// A hostile model's command that leaves the shell's process group (job control, setsid, setpgid)
// must still not outlive the call: the tool promises "background processes do not survive".
let work: string;
let bash: Tool;
const started: number[] = [];

beforeEach(async () => {
  work = await makeTempDir('ws-escape-');
  bash = toolNamed(workspaceTools({ cwd: work, env: { PATH: process.env.PATH, HOME: work } }), 'Bash');
});

afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  await fs.rm(work, { recursive: true, force: true });
});

async function pidsIn(file: string): Promise<number[]> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

const ESCAPES: Array<[string, string]> = [
  ['job control (set -m): its own process group', 'set -m; sleep 300 & echo $! > pids.txt; echo started'],
  ['setsid, output kept on the pipe', 'setsid sleep 300 & echo $! > pids.txt; echo started'],
  ['setsid with its output sent away', 'setsid sh -c \'echo $$ > pids.txt; exec sleep 300\' > /dev/null 2>&1 < /dev/null & until [ -s pids.txt ]; do sleep 0.01; done; echo started'],
  ['nohup setsid, double fork', '( nohup setsid sh -c \'echo $$ > pids.txt; exec sleep 300\' > /dev/null 2>&1 & ); until [ -s pids.txt ]; do sleep 0.01; done; echo started'],
  ['env -i setsid, output kept on the pipe (no mark, another session)', 'env -i /usr/bin/setsid /bin/sh -c \'echo $$ > pids.txt; exec sleep 300\' & until [ -s pids.txt ]; do sleep 0.01; done; echo started'],
  // Hundreds of pids given out before the daemon's: the scan's window (pids since the shell's) still holds it.
  ['setsid after 300 other processes came and went', 'for i in $(seq 300); do /bin/true; done; setsid sh -c \'echo $$ > pids.txt; exec sleep 300\' > /dev/null 2>&1 < /dev/null & until [ -s pids.txt ]; do sleep 0.01; done; echo started'],
  ['perl setpgid', 'perl -e \'setpgrp(0,0); open(F, ">pids.txt"); print F "$$\\n"; close F; close STDOUT; close STDERR; sleep 300\' & until [ -s pids.txt ]; do sleep 0.01; done; echo started'],
];

describe.skipIf(process.platform !== 'linux')('Bash: processes that leave the process group do not outlive the call', () => {
  for (const [name, command] of ESCAPES) {
    it(`${name}`, async () => {
      const result = await callTool(bash, { command }, { answer: () => true });
      expect(result).toMatchObject({ isError: false, text: 'started' });
      const pids = await pidsIn(path.join(work, 'pids.txt'));
      expect(pids).toHaveLength(1);
      started.push(...pids);
      expect(await waitUntil(() => pids.every(isGone), 100)).toBe(true);
    });
  }

  it('a timeout kills a setsid daemon too', async () => {
    const result = await callTool(bash, { command: 'setsid sh -c \'echo $$ > pids.txt; exec sleep 300\' > /dev/null 2>&1 & until [ -s pids.txt ]; do sleep 0.01; done; sleep 300', timeout: 1000 }, { answer: () => true });
    expect(result.text).toMatch(/timed out/);
    const pids = await pidsIn(path.join(work, 'pids.txt'));
    expect(pids).toHaveLength(1);
    started.push(...pids);
    expect(await waitUntil(() => pids.every(isGone), 100)).toBe(true);
  });

  it('an interrupt kills a process that left the group', async () => {
    const controller = new AbortController();
    const running = callTool(bash, { command: 'set -m; sleep 300 & echo $! > pids.txt; sleep 300' }, { answer: () => true, signal: controller.signal });
    expect(await waitUntil(async () => (await pidsIn(path.join(work, 'pids.txt'))).length === 1)).toBe(true);
    controller.abort();
    expect((await running).text).toMatch(/interrupted/);
    const pids = await pidsIn(path.join(work, 'pids.txt'));
    started.push(...pids);
    expect(await waitUntil(() => pids.every(isGone), 100)).toBe(true);
  });
});
