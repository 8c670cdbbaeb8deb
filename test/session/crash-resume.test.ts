import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicModel, createAgent, defineTool, SessionNotFoundError, type SessionEntry, type ToolResultBlock } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';
import { z } from 'zod';
import { tempDirs } from '../temp-dirs.js';
import { storedResultIds } from '../helpers.js';

const tempDir = tempDirs();

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const child = join(root, 'test/fixtures/kill-run.child.mjs');
const SESSION = 'crash-session';

function runChild(dir: string, mode: string, at: number): Promise<{ signal: string | null; stdout: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [child], { cwd: root, env: { ...process.env, DIR: dir, SESSION, KILL_MODE: mode, KILL_AT: String(at) } }, (error, stdout) => {
      done({ signal: (error as (Error & { signal?: string }) | null)?.signal ?? null, stdout });
    });
  });
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);

let server: MessagesServer;
let totals: { events: number; appends: number; executions: number };

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('The crash test runs the built package: run `npm run build` first (`npm test` does).');
  server = await startMessagesServer({ responses: [] });
  const dir = tempDir('agent-harness-crash-calibrate-');
  const calibration = await runChild(dir, 'none', 0);
  totals = JSON.parse(calibration.stdout.trim());
  expect(totals).toMatchObject({ status: 'completed' });
});
afterAll(() => server?.close());

/** Resumes a killed session in this process and checks the invariants; returns what happened. */
async function resumeAndCheck(dir: string, label: string): Promise<'resumed' | 'nothing-stored'> {
  const executedLog = join(dir, 'executed.jsonl');
  const neverRun = (name: string) =>
    defineTool({ name, description: name, inputSchema: z.object({ n: z.number() }), readOnly: name === 'look', execute: () => { throw new Error(`${label}: ${name} ran on resume`); } });
  const store = fileSessionStore({ dir: join(dir, 'sessions') });
  const entries: SessionEntry[] = [];
  for await (const entry of store.load(SESSION)) entries.push(entry);
  if (entries.length === 0) expect(lines(executedLog), `${label}: a tool ran with nothing stored`).toEqual([]);
  server.enqueue({ content: [{ type: 'text', text: 'Resumed.' }] });
  const agent = createAgent({
    model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
    store,
    resume: SESSION,
    tools: [neverRun('look'), neverRun('write')],
  });
  try {
    await agent.ready;
  } catch (error) {
    // Killed before a single whole entry reached the file: there is nothing to resume, and that is said clearly.
    expect(SessionNotFoundError.isInstance(error), `${label}: ${String(error)}`).toBe(true);
    expect(entries, label).toEqual([]);
    return 'nothing-stored';
  }
  const result = await agent.run('Please continue.').result;
  expect(result.status, `${label}: ${result.error?.message}`).toBe('completed');

  // Nothing the host saw announced is missing from the transcript.
  const storedResults = storedResultIds(entries);
  const storedRunStarts = entries.filter((entry) => entry.kind === 'run-start').length;
  for (const event of lines(join(dir, 'announced.jsonl'))) {
    if (event.type === 'tool-result') expect(storedResults.has(event.toolUseId), `${label}: announced ${event.toolUseId}`).toBe(true);
    if (event.type === 'run-start') expect(storedRunStarts, label).toBeGreaterThan(0);
  }
  const assistantTurns = entries.filter((entry) => entry.kind === 'message' && entry.message.role === 'assistant').length;
  const announcedTurns = lines(join(dir, 'announced.jsonl')).filter((event) => event.type === 'turn-end').length;
  expect(assistantTurns, label).toBeGreaterThanOrEqual(announcedTurns);

  // Every tool that ran had its call stored first (so a resume can never ask for it again), no
  // tool call ran twice, and every call in the history is answered.
  const starts = lines(executedLog).filter((line) => line.started).map((line) => line.toolUseId);
  const storedCalls = new Set(entries.flatMap((entry) => (entry.kind === 'message' && entry.message.role === 'assistant' ? entry.message.content.filter((block) => block.type === 'tool_use').map((block) => (block as { id: string }).id) : [])));
  for (const id of starts) expect(storedCalls.has(id), `${label}: ${id} ran before its call was stored`).toBe(true);
  expect(new Set(starts).size, `${label}: ${starts.join(',')}`).toBe(starts.length);
  const uses = agent.messages.flatMap((message) => (message.role === 'assistant' ? message.content.filter((block) => block.type === 'tool_use') : []));
  const answered = new Set(agent.messages.flatMap((message) => (message.role === 'user' && Array.isArray(message.content) ? message.content.filter((block): block is ToolResultBlock => block.type === 'tool_result').map((block) => block.tool_use_id) : [])));
  for (const use of uses) expect(answered.has((use as { id: string }).id), label).toBe(true);
  await store.close?.(SESSION);
  return 'resumed';
}

describe('crash consistency: SIGKILL at every point, then resume in another process', () => {
  // The child's run is scripted, so its events, store appends and tool executions are the same on
  // every run: every kill point is tried once (a seeded random sample of 200 points tried about
  // three in four of them, many several times, and took about five times as long).
  it('survives a kill at every event, every store append (half written) and every tool execution', async () => {
    const points = (['event', 'write', 'tool'] as const).flatMap((mode) => {
      const total = mode === 'event' ? totals.events : mode === 'write' ? totals.appends : totals.executions;
      return Array.from({ length: total }, (_, index) => ({ mode, at: index + 1 }));
    });
    const outcomes: Record<string, string[]> = { resumed: [], 'nothing-stored': [] };
    const work = async (point: (typeof points)[number]) => {
      const label = `kill point ${point.mode} ${point.at}`;
      const dir = tempDir(`agent-harness-crash-${point.mode}-${point.at}-`);
      const { signal } = await runChild(dir, point.mode, point.at);
      expect(signal, label).toBe('SIGKILL');
      outcomes[await resumeAndCheck(dir, label)]!.push(label);
    };
    // Two at a time: one child running while this process checks another.
    const queue = [...points];
    await Promise.all([0, 1].map(async () => {
      for (let point = queue.shift(); point; point = queue.shift()) await work(point);
    }));
    expect(outcomes.resumed!.length + outcomes['nothing-stored']!.length).toBe(points.length);
    // Only a kill before the first whole entry reached the file leaves nothing to resume.
    expect(outcomes['nothing-stored']!.length, outcomes['nothing-stored']!.join(', ')).toBeLessThan(points.length / 10);
    expect(server.errors).toEqual([]);
  }, 300_000);
});
