// A store that answers each append after a random number of event-loop turns (seeded; no clock),
// under runs of parallel calls, subagents and a host listening to everything: whatever the journal
// hands to one append, an event is seen only once the entry it announces is stored, a tool runs only
// once the call that asked for it is stored, every entry is stored once and in order, and a resumed
// session holds what the agent held.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentEvent, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { mulberry32 } from './seeded-random.js';
import { storedResultIds, tick } from '../helpers.js';



/** Stores after 0–3 event-loop turns; keeps what is stored, synchronously readable. */
function slowStore(seed: number) {
  const inner = memorySessionStore();
  const next = mulberry32(seed);
  const stored: SessionEntry[] = [];
  const store = Object.create(inner) as SessionStore;
  let appends = 0;
  store.append = async (sessionId, entries, options) => {
    appends++;
    const turns = Math.floor(next() * 4);
    for (let index = 0; index < turns; index++) await tick();
    await inner.append(sessionId, entries, options);
    stored.push(...entries);
  };
  return { store, inner, stored, appends: () => appends };
}

/** Whether a stored entry announces this tool call (the model's answer holding it). */
const holdsCall = (entry: SessionEntry, toolUseId: string) =>
  entry.kind === 'message' && entry.message.role === 'assistant' && Array.isArray(entry.message.content) && entry.message.content.some((block) => block.type === 'tool_use' && block.id === toolUseId);
/** Whether a stored entry holds this call's result: its `tool-result` entry, or the user message carrying it (the batch's last answer is stored there only). */
const holdsResult = (entry: SessionEntry, toolUseId: string) => storedResultIds([entry]).has(toolUseId);

describe('a slow store, whatever it is handed per append', () => {
  it.each(Array.from({ length: 12 }, (_, index) => index + 1))('seed %i: events after their entries, tools after their calls, every entry once and in order', async (seed) => {
    const { store, inner, stored, appends } = slowStore(seed);
    const problems: string[] = [];
    const ran: string[] = [];
    const note = defineTool({
      name: 'note',
      description: 'Takes a note.',
      inputSchema: z.object({ n: z.number() }),
      readOnly: true,
      execute: async ({ input, toolUseId }) => {
        if (!stored.some((entry) => holdsCall(entry, toolUseId))) problems.push(`${toolUseId} ran before its call was stored`);
        ran.push(toolUseId);
        // Some calls end a few loop turns later, so results are recorded while others are stored.
        for (let index = 0; index < input.n % 3; index++) await tick();
        return `note ${input.n}`;
      },
    });
    const calls = (turnIndex: number, count: number) => Array.from({ length: count }, (_, index) => toolCall('note', { n: turnIndex * 10 + index }, `toolu_${seed}_${turnIndex}_${index}`));
    const shape = mulberry32(seed * 7919);
    const script = Array.from({ length: 5 }, (_, turnIndex) => turn(`Turn ${turnIndex}.`, ...calls(turnIndex, 1 + Math.floor(shape() * 4))));
    const worker = scriptedModel([turn(toolCall('note', { n: 99 }, `toolu_${seed}_sub`)), 'Sub done.']);
    const model = scriptedModel([...script, turn(toolCall('Agent', { description: 'Help', prompt: 'Take a note.', subagent_type: 'worker' }, `toolu_${seed}_agent`)), 'Done.']);
    const agent = createAgent({ model, tools: [note], store, agents: { worker: { description: 'Takes notes.', prompt: 'You take notes.', model: worker, tools: ['note'] } } });
    const heard: AgentEvent[] = [];
    const check = (event: AgentEvent) => {
      heard.push(event);
      if (event.type === 'tool-call' && !stored.some((entry) => holdsCall(entry, event.toolUseId))) problems.push(`tool-call ${event.toolUseId} seen before its call was stored`);
      if (event.type === 'tool-result' && !stored.some((entry) => holdsResult(entry, event.toolUseId))) problems.push(`tool-result ${event.toolUseId} seen before its result was stored`);
      if (event.type === 'run-start' && !stored.some((entry) => entry.kind === 'run-start' && entry.runId === event.runId)) problems.push('run-start seen before it was stored');
    };
    for (const type of ['run-start', 'tool-call', 'tool-result', 'turn-end', 'subagent-start', 'subagent-end', 'run-end'] as const) agent.on(type, check);
    const run = agent.run('Take notes.');
    for await (const event of run) check(event);
    const result = await run.result;

    expect(problems).toEqual([]);
    expect(result.status).toBe('completed');
    expect(ran).toHaveLength(new Set(ran).size);
    expect(ran).toContain(`toolu_${seed}_sub`);
    // Fewer appends than entries: the journal did hand several to one append.
    expect(appends()).toBeLessThan(stored.length);
    const loaded = await loadEntries(inner, agent.sessionId);
    expect(loaded.map((entry) => entry.seq)).toEqual(loaded.map((_, index) => index + 1));
    expect(loaded.map((entry) => entry.id)).toEqual(stored.map((entry) => entry.id));
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([]), tools: [note], store: inner, resume: agent.sessionId, agents: { worker: { description: 'Takes notes.', prompt: 'You take notes.', model: scriptedModel([]), tools: ['note'] } } });
    await resumed.ready;
    expect(resumed.messages).toEqual(agent.messages);
    await resumed.close();
  });
});
