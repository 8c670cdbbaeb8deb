// kill -9 while a subagent's approved call runs: every tool runs exactly once across processes.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type ToolResultBlock } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel } from 'agent-harness/testing';
import { tempDirs } from '../temp-dirs.js';

const tempDir = tempDirs();

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const child = join(root, 'test/fixtures/kill-subagent.child.mjs');
const SESSION = 'subagent-crash';

function runChild(dir: string, env: Record<string, string>): Promise<{ signal: string | null; stdout: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [child], { cwd: root, env: { ...process.env, DIR: dir, SESSION, ...env } }, (error, stdout) => {
      done({ signal: (error as (Error & { signal?: string }) | null)?.signal ?? null, stdout });
    });
  });
}

const started = (dir: string) => {
  const file = join(dir, 'executed.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
};

let events = 0;
beforeAll(async () => {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('The crash test runs the built package: run `npm run build` first (`npm test` does).');
  const dir = tempDir('agent-harness-subagent-calibrate-');
  expect(JSON.parse((await runChild(dir, { MODE: 'setup' })).stdout)).toMatchObject({ status: 'awaiting-approval' });
  const resolved = JSON.parse((await runChild(dir, { MODE: 'resolve' })).stdout);
  expect(resolved).toMatchObject({ status: 'completed' });
  expect(started(dir)).toBe(1);
  events = resolved.events;
});

/** Resumes the killed session here: the nested call never runs again; whatever still waits runs once. */
async function resumeAndCheck(dir: string, label: string): Promise<void> {
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: () => `wrote (resumed)` });
  let ranHere = 0;
  const counted = { ...write, execute: (args: never) => (ranHere++, write.execute(args)) };
  const store = fileSessionStore({ dir: join(dir, 'sessions') });
  const agent = createAgent({ model: scriptedModel(['Parent done.', 'Parent done.']), tools: [counted], store, resume: SESSION, agents: { writer: { description: 'Writes.', prompt: 'You write.', model: scriptedModel(['The child wrote it.']) } } });
  await agent.ready;
  const before = started(dir);
  if (agent.pendingApprovals.length > 0) {
    // Killed before the answer was stored: the approval is still offered, and runs once now.
    expect(before, label).toBe(0);
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(ranHere, label).toBe(1);
  } else {
    expect(ranHere, label).toBe(0);
    expect(before, label).toBeLessThanOrEqual(1);
    const answer = agent.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content)).find((block): block is ToolResultBlock => block.type === 'tool_result' && block.tool_use_id === 'p_agent');
    // Answered (done, or interrupted while the subagent ran) or the batch is still closing: never waiting again.
    if (answer?.is_error) expect(String(answer.content), label).toMatch(/interrupted/);
  }
  expect(agent.pendingApprovals, label).toEqual([]);
  await agent.close();
}

describe('kill -9 while a subagent continues after an approval', () => {
  it('inside the nested tool: the call is answered as interrupted on resume, never run twice', async () => {
    const dir = tempDir('agent-harness-subagent-kill-');
    await runChild(dir, { MODE: 'setup' });
    const killed = await runChild(dir, { MODE: 'resolve', KILL_MODE: 'tool' });
    expect(killed.signal).toBe('SIGKILL');
    expect(started(dir)).toBe(1);
    await resumeAndCheck(dir, 'tool');
    expect(started(dir)).toBe(1);
  });

  it('at events across the resolving run: the nested tool never runs twice, and an approval still waiting runs it once', async () => {
    expect(events).toBeGreaterThan(5);
    // Twelve kill points spread over the run (every event would take a minute on a loaded machine).
    const points = [...new Set(Array.from({ length: 12 }, (_, index) => 1 + Math.floor((index * (events - 1)) / 11)))];
    for (const at of points) {
      const dir = tempDir('agent-harness-subagent-kill-');
      await runChild(dir, { MODE: 'setup' });
      const killed = await runChild(dir, { MODE: 'resolve', KILL_MODE: 'event', KILL_AT: String(at) });
      expect(killed.signal, `event ${at}`).toBe('SIGKILL');
      await resumeAndCheck(dir, `event ${at}`);
      expect(started(dir), `event ${at}`).toBeLessThanOrEqual(1);
    }
  }, 120_000);
});
