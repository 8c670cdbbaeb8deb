import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_AGENTS, createAgent, defineTool, foldEntries, memorySessionStore, type ContentBlock, type ContextOptions, type SessionEntry, type SessionStore } from '../../src/index.js';
import { fileSessionStore } from '../../src/node/index.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { CLEARED_CHARS_BEFORE_CHECKPOINT } from '../../src/loop/checkpoint-after-clearing.js';
import { scriptedModel, toolCall, turn } from '../../src/testing/index.js';
import { asksForSummary, contextModel } from './context-model.js';

// A session that clears old tool results and never compacts (the defaults, with large results)
// stores a checkpoint once the results cleared since the last one hold as much text as the state:
// a resume then starts there instead of reading every result it cleared again.

const SUMMARY = '<summary>\n## Goal\nRead every file.\n</summary>';

/** A read whose output is `size` characters; `Note` returns what it is given (a result no clearing takes: excluded). */
const tools = (size: number) => [
  defineTool({ name: 'Read', description: 'Reads a file.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}\n${'lorem ipsum dolor '.repeat(Math.ceil(size / 18)).slice(0, size)}` }),
  defineTool({ name: 'Note', description: 'Keeps a note.', inputSchema: z.object({ text: z.string() }), readOnly: true, execute: ({ input }) => input.text }),
];

/** Reads `reads` files (a `Note` of `noteChars` first, when given), then answers (and reads as many again in the next run); summarizes when asked. Its call ids begin with `ids`. */
function reader(reads: number, noteChars = 0, ids = 'toolu') {
  let done = 0;
  let noted = noteChars === 0;
  return contextModel((request, index): ContentBlock[] => {
    if (asksForSummary(request)) return [{ type: 'text', text: SUMMARY }];
    if (!noted) {
      noted = true;
      return [{ type: 'tool_use', id: `toolu_note_${index}`, name: 'Note', input: { text: 'n'.repeat(noteChars) } }];
    }
    if (done >= reads) {
      done = 0;
      return [{ type: 'text', text: 'All read.' }];
    }
    done++;
    return [{ type: 'tool_use', id: `${ids}_${index}`, name: 'Read', input: { path: `file-${index}.txt` } }];
  });
}

/** Clearing past 40 % of a 40,000-token window, 10,000 characters at least, the last three turns kept; compaction off unless given. */
const clearing = (more: ContextOptions = {}): ContextOptions => ({ window: 40_000, clearing: { triggerFraction: 0.4, clearAtLeastChars: 10_000 }, compaction: false, ...more });

/** Runs `model` to its end on `store`, counting the characters each clearing took. */
async function write(store: SessionStore, model: ReturnType<typeof reader>, context: ContextOptions, size = 8_000, excludeNotes = false) {
  const clearedChars: number[] = [];
  const agent = createAgent({
    model,
    tools: tools(size),
    store,
    maxTurns: 200,
    context: excludeNotes ? { ...context, clearing: { ...(context.clearing as object), excludeTools: ['Note'] } } : context,
  });
  agent.on('tool-results-cleared', (event) => clearedChars.push(event.cleared.reduce((sum, call) => sum + call.chars, 0)));
  const result = await agent.run('Read the files.').result;
  await agent.close();
  expect(result.status).toBe('completed');
  return { agent, clearedChars, entries: await loadEntries(store, agent.sessionId) };
}

const checkpoints = (entries: readonly SessionEntry[], reason: string) => entries.filter((entry) => entry.kind === 'checkpoint' && entry.reason === reason) as Array<Extract<SessionEntry, { kind: 'checkpoint' }>>;

/**
 * For each checkpoint written after a clearing: the characters cleared since the checkpoint before
 * it (of any reason), and its state's JSON size (the i-th `results-cleared` entry is the i-th event).
 */
function clearedBefore(entries: readonly SessionEntry[], clearedChars: readonly number[]) {
  const found: Array<{ cleared: number; stateChars: number; entry: SessionEntry }> = [];
  let clearings = 0;
  let since = 0;
  for (const entry of entries) {
    if (entry.kind === 'results-cleared') since += clearedChars[clearings++]!;
    if (entry.kind !== 'checkpoint') continue;
    if (entry.reason === 'results-cleared') found.push({ cleared: since, stateChars: JSON.stringify(entry.state).length, entry });
    since = 0;
  }
  expect(clearings).toBe(clearedChars.length);
  return found;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a checkpoint after clearing', () => {
  it('is stored once the cleared results hold as much text as the state, and is the state folded at that point', async () => {
    const { agent, clearedChars, entries } = await write(memorySessionStore(), reader(60), clearing());
    const written = clearedBefore(entries, clearedChars);
    expect(clearedChars.length).toBeGreaterThan(3);
    expect(written.length).toBeGreaterThan(0);
    // Fewer than the clearings: each waits for as much cleared text as the state holds.
    expect(written.length).toBeLessThan(clearedChars.length);
    for (const { cleared, stateChars, entry } of written) {
      expect(cleared).toBeGreaterThanOrEqual(Math.max(stateChars, CLEARED_CHARS_BEFORE_CHECKPOINT));
      // Right after the clearing it follows, holding the state those entries fold to.
      const at = entries.indexOf(entry);
      expect(entries[at - 1]!.kind).toBe('results-cleared');
      const folded = foldEntries(entries.slice(0, at), { sessionId: agent.sessionId });
      expect(JSON.parse(JSON.stringify((entry as Extract<SessionEntry, { kind: 'checkpoint' }>).state))).toEqual(JSON.parse(JSON.stringify(folded)));
    }
    // What the checkpoints add is bounded by what the clearings freed.
    const added = written.reduce((sum, { stateChars }) => sum + stateChars, 0);
    expect(added).toBeLessThanOrEqual(clearedChars.reduce((sum, chars) => sum + chars, 0));
    expect(foldEntries(entries, { sessionId: agent.sessionId }).messages).toEqual(agent.messages);
  });

  it('is what a resume in another process starts at: the cleared results before it are not read, and the history is the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkpoint-after-clearing-'));
    dirs.push(dir);
    const { agent, entries } = await write(fileSessionStore({ dir }), reader(60), clearing());
    const last = checkpoints(entries, 'results-cleared').at(-1)!;
    expect(last).toBeDefined();
    // Another process: a store of its own over the same folder.
    const loads: Array<SessionEntry[]> = [];
    const other = fileSessionStore({ dir });
    const watched: SessionStore = {
      ...other,
      async *load(...args: Parameters<SessionStore['load']>) {
        const loaded: SessionEntry[] = [];
        loads.push(loaded);
        for await (const entry of other.load(...args)) {
          loaded.push(entry);
          yield entry;
        }
      },
    };
    const resumed = createAgent({ model: reader(0), tools: tools(8_000), store: watched, resume: agent.sessionId, context: clearing() });
    await resumed.ready;
    expect(loads).toHaveLength(1);
    expect(loads[0]![0]!.id).toBe(last.id);
    expect(loads[0]!.length).toBe(entries.length - entries.indexOf(last));
    expect(resumed.messages).toEqual(agent.messages);
    // And it goes on from there.
    const result = await resumed.run('Anything else?').result;
    expect(result.status).toBe('completed');
    await resumed.close();
  });

  it('is not stored before the clearings took 64 KiB, nor without a store', async () => {
    // Results of 1,500 characters: a clearing takes a few thousand.
    const small = await write(memorySessionStore(), reader(40), clearing({ clearing: { triggerFraction: 0.1, clearAtLeastChars: 1_000 } }), 1_500);
    const total = small.clearedChars.reduce((sum, chars) => sum + chars, 0);
    expect(small.clearedChars.length).toBeGreaterThan(2);
    expect(total).toBeLessThan(CLEARED_CHARS_BEFORE_CHECKPOINT);
    expect(checkpoints(small.entries, 'results-cleared')).toEqual([]);
    // Without a store, the same session clears as before.
    const cleared: number[] = [];
    const unstored = createAgent({ model: reader(60), tools: tools(8_000), maxTurns: 200, context: clearing() });
    unstored.on('tool-results-cleared', (event) => cleared.push(event.cleared.length));
    expect((await unstored.run('Read the files.').result).status).toBe('completed');
    expect(cleared.length).toBeGreaterThan(3);
  });

  it('is not stored while the state holds more than was cleared (a large result no clearing takes)', async () => {
    // An 800,000-character note the clearing excludes: the state stays larger than all it clears.
    const { clearedChars, entries } = await write(memorySessionStore(), reader(60, 800_000), clearing({ window: 400_000 }), 8_000, true);
    const total = clearedChars.reduce((sum, chars) => sum + chars, 0);
    expect(clearedChars.length).toBeGreaterThan(3);
    expect(total).toBeGreaterThan(CLEARED_CHARS_BEFORE_CHECKPOINT);
    expect(total).toBeLessThan(800_000);
    expect(checkpoints(entries, 'results-cleared')).toEqual([]);
  });

  it('counts from the last checkpoint of any kind: after a compaction, the cleared text starts again from zero', async () => {
    const store = memorySessionStore();
    const clearedChars: number[] = [];
    const agent = createAgent({ model: reader(50), tools: tools(8_000), store, maxTurns: 200, context: clearing({ compaction: { outputReserve: 0 } }) });
    agent.on('tool-results-cleared', (event) => clearedChars.push(event.cleared.reduce((sum, call) => sum + call.chars, 0)));
    for (let run = 0; run < 3; run++) {
      expect((await agent.run('Read the files.').result).status).toBe('completed');
      await agent.compact();
    }
    await agent.close();
    const entries = await loadEntries(store, agent.sessionId);
    expect(checkpoints(entries, 'compaction')).toHaveLength(3);
    const written = clearedBefore(entries, clearedChars);
    expect(written.length).toBeGreaterThan(2);
    for (const { cleared, stateChars } of written) expect(cleared).toBeGreaterThanOrEqual(Math.max(stateChars, CLEARED_CHARS_BEFORE_CHECKPOINT));
  });

  it("is not stored for a subagent's clearings (the stores start a resume at the session's own agent's checkpoints only)", async () => {
    const store = memorySessionStore();
    const child = reader(60);
    const parent = scriptedModel([turn(toolCall('Agent', { description: 'read', prompt: 'Read the files.', subagent_type: 'explore' }, 'p_agent')), 'Done.']);
    // The window table carries over to a subagent on another model (`window` does not).
    const context = clearing({ windows: { 'claude-sonnet-4-6': 40_000 } });
    const agent = createAgent({ model: parent, tools: tools(8_000), store, maxTurns: 200, context, agents: { explore: { ...BUILTIN_AGENTS.explore, model: child } } });
    expect((await agent.run('Delegate the reading.').result).status).toBe('completed');
    await agent.close();
    const entries = await loadEntries(store, agent.sessionId);
    const own = entries.filter((entry) => entry.agentId !== undefined && entry.agentId !== entries[0]!.agentId);
    expect(own.filter((entry) => entry.kind === 'results-cleared').length).toBeGreaterThan(3);
    expect(checkpoints(entries, 'results-cleared')).toEqual([]);
  });

  it('a checkpoint torn by a crash as it was written is passed over: the resume starts at the one before and folds the same history', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkpoint-after-clearing-'));
    dirs.push(dir);
    const { agent, entries } = await write(fileSessionStore({ dir }), reader(60), clearing());
    const written = checkpoints(entries, 'results-cleared');
    expect(written.length).toBeGreaterThan(1);
    const last = written.at(-1)!;
    // The process died in the middle of writing the last one: the file ends in half of its line.
    const file = join(dir, `${agent.sessionId}.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((line) => line.includes(`"id":"${last.id}"`));
    writeFileSync(file, `${lines.slice(0, at).join('\n')}\n${lines[at]!.slice(0, lines[at]!.length >> 1)}`);
    const resumed = createAgent({ model: reader(40, 0, 'again'), tools: tools(8_000), store: fileSessionStore({ dir }), maxTurns: 200, resume: agent.sessionId, context: clearing() });
    await resumed.ready;
    expect(resumed.messages).toEqual(foldEntries(entries.slice(0, entries.indexOf(last)), { sessionId: agent.sessionId }).messages);
    // It goes on, and its next clearing stores a checkpoint again.
    const result = await resumed.run('Read more.').result;
    expect(result.status).toBe('completed');
    await resumed.close();
    const after = await loadEntries(fileSessionStore({ dir }), agent.sessionId);
    expect(checkpoints(after, 'results-cleared').length).toBeGreaterThanOrEqual(written.length);
    expect(foldEntries(after, { sessionId: agent.sessionId }).messages).toEqual(resumed.messages);
  });
});
