import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGone } from '../../process-helpers.js';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { suggestBashRule } from '../../../src/node/workspace-tools/bash-tool.js';
import type { Tool } from '../../../src/tools/types.js';
import { callTool, fakeAgent, makeTempDir, outcomeOf, toolNamed, waitUntil } from './helpers.js';

let work: string;
let bash: Tool;

beforeEach(async () => {
  work = await makeTempDir('ws-bash-');
  bash = toolNamed(workspaceTools({ cwd: work, env: { PATH: process.env.PATH, HOME: work } }), 'Bash');
});

afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

async function pidsIn(file: string): Promise<number[]> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

// Two background sleeps and a foreground one; all their pids (and the shell's) go to pids.txt.
const SPAWNER = 'sleep 30 & echo $! >> pids.txt; sleep 30 & echo $! >> pids.txt; echo $$ >> pids.txt; sleep 30';

describe('Bash', () => {
  it('is an execute-kind tool whose read-only calls are recognized', () => {
    expect(bash).toMatchObject({ kind: 'execute', readOnly: false, concurrencySafe: false, ruleTarget: { field: 'command', kind: 'command' } });
    expect(bash.isReadOnlyCall!({ command: 'git status && ls' })).toBe(true);
    expect(bash.isReadOnlyCall!({ command: 'npm test' })).toBe(false);
  });

  it('runs in cwd and returns stdout, stderr and the exit code', async () => {
    const ok = await callTool(bash, { command: 'pwd; echo out; echo err >&2' }, { answer: () => true });
    expect(ok).toMatchObject({ isError: false, text: `${work}\nout\nerr` });
    const failed = await callTool(bash, { command: 'echo partial; exit 3' }, { answer: () => true });
    expect(failed).toMatchObject({ isError: true, text: 'partial\n\nExit code 3' });
    expect((await callTool(bash, { command: 'true' })).text).toBe('(no output)');
  });

  it('caps output, keeping the beginning and the end', async () => {
    const small = toolNamed(workspaceTools({ cwd: work, maxOutputChars: 100 }), 'Bash');
    const result = await callTool(small, { command: 'seq 1 100000' }, { answer: () => true });
    expect(result.text.length).toBeLessThan(200);
    expect(result.text).toMatch(/^1\n2\n3\n/);
    expect(result.text).toMatch(/characters omitted/);
    expect(result.text).toMatch(/99999\n100000$/);
  });

  it('asks before a command that is not read-only, suggesting a prefix rule', async () => {
    const result = await callTool(bash, { command: 'npm test -- --watch=false' });
    expect(result.check).toMatchObject({
      behavior: 'ask',
      message: expect.stringMatching(/npm is not on the read-only list/),
      suggestions: [{ type: 'addRules', behavior: 'allow', rules: ['Bash(npm test:*)'], destination: 'session' }],
    });
    expect(suggestBashRule('make')).toEqual([{ type: 'addRules', behavior: 'allow', rules: ['Bash(make:*)'], destination: 'session' }]);
    expect(suggestBashRule('ls && touch x')[0]).toMatchObject({ rules: ['Bash(ls && touch x)'] });
    expect((await callTool(bash, { command: 'ls' })).check).toEqual({ behavior: 'passthrough' });
  });

  it('refuses catastrophic commands at validation, in every mode, and again at execution', async () => {
    for (const mode of ['default', 'bypassPermissions', 'acceptEdits', 'plan'] as const) {
      const result = await callTool(bash, { command: 'rm -rf ~' }, { agent: fakeAgent(mode), answer: () => true });
      expect(result).toMatchObject({ stage: 'validate', text: expect.stringMatching(/^Refused, in every permission mode: rm -r ~/) });
    }
    const raw = await bash.execute({ input: { command: ':(){ :|:& };:' }, toolUseId: 't', agent: fakeAgent(), signal: new AbortController().signal });
    expect(outcomeOf(raw)).toMatchObject({ isError: true, text: expect.stringMatching(/fork bomb/) });
  });

  it('rejects a NUL character at validation', async () => {
    expect(await callTool(bash, { command: 'ls\0x' })).toMatchObject({ stage: 'validate', text: expect.stringMatching(/NUL/) });
  });

  it('rejects a timeout above the maximum', async () => {
    expect((await callTool(bash, { command: 'ls', timeout: 600_001 })).stage).toBe('parse');
  });

  it('a timeout kills the whole process group: no process is left behind', async () => {
    const pidFile = path.join(work, 'pids.txt');
    const result = await callTool(bash, { command: SPAWNER, timeout: 1500 }, { answer: () => true });
    expect(result).toMatchObject({ isError: true, text: expect.stringMatching(/timed out after 1500 ms/) });
    const pids = await pidsIn(pidFile);
    expect(pids).toHaveLength(3);
    expect(await waitUntil(() => pids.every(isGone))).toBe(true);
  });

  it('an interrupt (abort) kills the whole process group', async () => {
    const pidFile = path.join(work, 'pids.txt');
    const controller = new AbortController();
    const running = callTool(bash, { command: SPAWNER }, { answer: () => true, signal: controller.signal });
    expect(await waitUntil(async () => (await pidsIn(pidFile)).length === 3)).toBe(true);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ isError: true, text: expect.stringMatching(/interrupted/) });
    const pids = await pidsIn(pidFile);
    expect(await waitUntil(() => pids.every(isGone))).toBe(true);
  });

  it('background processes do not outlive a command that exits normally', async () => {
    const pidFile = path.join(work, 'pids.txt');
    const result = await callTool(bash, { command: 'sleep 30 & echo $! > pids.txt; echo started' }, { answer: () => true });
    expect(result).toMatchObject({ isError: false, text: 'started' });
    const [pid] = await pidsIn(pidFile);
    expect(await waitUntil(() => isGone(pid!))).toBe(true);
  });

  it('does not start when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const raw = await bash.execute({ input: { command: 'touch should-not-exist' }, toolUseId: 't', agent: fakeAgent(), signal: controller.signal });
    expect(outcomeOf(raw).isError).toBe(true);
    await expect(fs.access(path.join(work, 'should-not-exist'))).rejects.toThrow();
  });

  it('reports a shell that cannot start', async () => {
    const broken = toolNamed(workspaceTools({ cwd: work, shell: path.join(work, 'no-such-shell') }), 'Bash');
    const raw = await broken.execute({ input: { command: 'ls' }, toolUseId: 't', agent: fakeAgent(), signal: new AbortController().signal });
    expect(outcomeOf(raw)).toMatchObject({ isError: true, text: expect.stringMatching(/could not be started/) });
  });
});

describe('Bash output for the model and hosts', () => {
  it('drops terminal escapes (colours, titles) and shows bidi and control characters, meaning kept', async () => {
    const command = String.raw`printf '\033[1;31mFAIL\033[0m test\n\033]0;pwned\007title\nok \342\200\256gnp.exe\n\033[2Kbell\007\n'`;
    const outcome = await callTool(bash, { command }, { answer: () => true });
    expect(outcome).toMatchObject({ isError: false, text: 'FAIL test\ntitle\nok <U+202E>gnp.exe\nbell<U+0007>' });
  });

  it('keeps carriage returns and tabs as they are', async () => {
    const outcome = await callTool(bash, { command: String.raw`printf 'a\tb\r\nc\n'` }, { answer: () => true });
    expect(outcome).toMatchObject({ isError: false, text: 'a\tb\r\nc' });
  });
});
