// Property-style attack: random scripts of turns, tool calls (read, asked-for write, failing tool,
// TodoWrite), model failures, interrupts at a random event and random approval answers. Every run
// must keep the invariants a host UI is built on, and the session resumed from its store must
// equal the live one.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentEvent } from 'agent-harness';
import { scriptedModel, text, toolCall, turn, validateMessagesRequest, type ScriptItem } from 'agent-harness/testing';
import { mulberry32, type Rng } from './seeded-random.js';

const pick = <T,>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

function tools() {
  const ran: string[] = [];
  const look = defineTool({ name: 'look', description: 'Looks.', inputSchema: z.object({ n: z.number() }), readOnly: true, execute: async ({ input }) => (ran.push(`look:${input.n}`), 'seen') });
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ n: z.number() }), kind: 'edit', execute: ({ input }) => (ran.push(`write:${input.n}`), 'wrote') });
  const boom = defineTool({ name: 'boom', description: 'Fails.', inputSchema: z.object({ n: z.number() }), readOnly: true, execute: () => { throw new Error('boom'); } });
  return { ran, list: [look, write, boom] };
}

function randomScript(rng: Rng): ScriptItem[] {
  const script: ScriptItem[] = [];
  let n = 0;
  const turns = 1 + Math.floor(rng() * 4);
  for (let t = 0; t < turns; t++) {
    if (rng() < 0.1) {
      script.push(turn(text('partial'), { error: new Error('model down') }));
      continue;
    }
    const calls = Math.floor(rng() * 3);
    const parts = [];
    if (rng() < 0.5) parts.push(text(`thinking aloud ${t}`));
    for (let c = 0; c < calls; c++) {
      const kind = pick(rng, ['look', 'write', 'boom', 'TodoWrite'] as const);
      n++;
      if (kind === 'TodoWrite') parts.push(toolCall('TodoWrite', { todos: [{ content: `step ${n}`, status: pick(rng, ['pending', 'in_progress', 'completed']), activeForm: `Doing ${n}` }] }, `toolu_${n}`));
      else parts.push(toolCall(kind, { n }, `toolu_${n}`));
    }
    if (parts.length === 0) parts.push(text('…'));
    script.push(turn(...parts));
  }
  for (let i = 0; i < 8; i++) script.push('done');
  return script;
}

interface Seen {
  calls: Map<string, number>;
  results: Map<string, number>;
}

function checkRun(events: AgentEvent[], heard: AgentEvent[], runId: string, seen: Seen) {
  const types = events.map((e) => e.type);
  expect(types[0]).toBe('run-start');
  expect(types.at(-1)).toBe('run-end');
  expect(types.filter((t) => t === 'run-start')).toHaveLength(1);
  expect(types.filter((t) => t === 'run-end')).toHaveLength(1);
  expect((events[0] as { runId: string }).runId).toBe(runId);
  // Listeners hear the same events, in the same order, as the iterator.
  expect(heard).toEqual(events);
  for (const event of events) {
    if (event.type === 'tool-call') seen.calls.set(event.toolUseId, (seen.calls.get(event.toolUseId) ?? 0) + 1);
    if (event.type === 'tool-result') {
      expect(seen.calls.get(event.toolUseId), `tool-result for ${event.toolUseId} without a tool-call`).toBe(1);
      seen.results.set(event.toolUseId, (seen.results.get(event.toolUseId) ?? 0) + 1);
    }
  }
}

async function scenario(seed: number) {
  const rng = mulberry32(seed);
  const store = memorySessionStore();
  const { ran, list } = tools();
  const script = randomScript(rng);
  const model = scriptedModel(script);
  const agent = createAgent({ model, tools: list, store });
  const seen: Seen = { calls: new Map(), results: new Map() };
  let heard: AgentEvent[] = [];
  let afterEnd: AgentEvent[] = [];
  let ended = false;
  let countdown = -1;
  const types = ['run-start', 'turn-start', 'text-delta', 'tool-call', 'tool-result', 'permission-request', 'permission-decision', 'todo-update', 'turn-end', 'context-usage', 'run-end', 'error'] as const;
  for (const type of types)
    agent.on(type, (event: AgentEvent) => {
      if (ended) afterEnd.push(event);
      else heard.push(event);
      if (event.type === 'run-end') ended = true;
      if (countdown > 0 && --countdown === 0) agent.interrupt();
    });
  let todosFromEvents: unknown = [];
  agent.on('todo-update', (e) => (todosFromEvents = e.todos));

  const drive = async (start: () => ReturnType<typeof agent.run>) => {
    heard = [];
    ended = false;
    countdown = rng() < 0.4 ? 1 + Math.floor(rng() * 12) : -1;
    const run = start();
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;
    checkRun(events, heard, run.runId, seen);
    expect((events.at(-1) as { result: unknown }).result).toBe(result);
    return result;
  };

  let result = await drive(() => agent.run('go'));
  for (let round = 0; round < 6; round++) {
    // Every call announced has a result, or waits in pendingApprovals — never both, never neither.
    const pending = new Set(agent.pendingApprovals.map((p) => p.toolUseId));
    for (const [id, count] of seen.calls) {
      expect(count, `${id} announced twice`).toBe(1);
      const results = seen.results.get(id) ?? 0;
      expect(results, `${id} answered twice`).toBeLessThanOrEqual(1);
      if (pending.has(id)) expect(results, `${id} both answered and pending`).toBe(0);
      // A call of a batch that waits for an approval is answered when the batch resumes.
      else if (result.status !== 'awaiting-approval') expect(results, `${id} neither answered nor pending (status ${result.status})`).toBe(1);
    }
    expect(agent.todos).toEqual(todosFromEvents);
    if (agent.pendingApprovals.length === 0) break;
    const approval = agent.pendingApprovals[0]!;
    const decision = rng() < 0.5 ? { behavior: 'allow' as const } : { behavior: 'deny' as const, message: 'no' };
    result = await drive(() => agent.resolveApproval(approval.id, decision));
  }
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(afterEnd.filter((e) => e.type !== 'run-start')).toEqual([]);
  // Nothing ran twice.
  expect(new Set(ran).size).toBe(ran.length);
  // The history is one the API takes.
  const messages = [...agent.messages, { role: 'user' as const, content: 'next' }];
  if (agent.pendingApprovals.length === 0) expect(validateMessagesRequest(agent.messages.length ? (agent.messages.at(-1)!.role === 'user' ? agent.messages : messages) : messages), `seed ${seed}`).toBeUndefined();
  await agent.close();
  // The session resumed from its store equals the live one.
  const resumed = createAgent({ model: scriptedModel(['x']), tools: list, store, resume: agent.sessionId });
  await resumed.ready;
  expect(resumed.messages).toEqual(agent.messages);
  expect(resumed.todos).toEqual(agent.todos);
  expect(resumed.pendingApprovals.map((p) => p.toolUseId)).toEqual(agent.pendingApprovals.map((p) => p.toolUseId));
  await resumed.close();
}

describe('attack: event invariants over random runs', () => {
  for (let seed = 1; seed <= Number(process.env.ATTACK_SEEDS ?? 60); seed++) it(`seed ${seed}`, async () => { await scenario(seed); });
});
