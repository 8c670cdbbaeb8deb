// Transcripts and the entry a load with `fromCheckpoint` may start at, shared by the tests of the
// memory store's textsFromCheckpoint, the file store's findCheckpointStart and the PostgreSQL and
// Redis loads (which must agree).
import { expect } from 'vitest';
import { createAgent, type SessionStore } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { createSessionState } from '../../src/state/session-state.js';
import type { SessionEntry } from '../../src/state/entries.js';

export interface CheckpointScenario {
  name: string;
  /** The stored texts, one entry each (a file's lines). */
  texts: string[];
  agentId?: string;
  /** The index in `texts` of the text a load may start at; 0 when none (the whole transcript). */
  start: number;
}

const json = (entry: unknown) => JSON.stringify(entry);

function session(sessionId = 's') {
  const make = entryMaker(sessionId);
  const checkpoint = (agentId?: string) => make.next({ kind: 'checkpoint', state: createSessionState({ sessionId, ...(agentId !== undefined ? { agentId } : {}) }), reason: 'compaction', ...(agentId !== undefined ? { agentId } : {}) });
  return { make, checkpoint };
}

/**
 * @param padding - text added to the first user message of each transcript (a store reads a
 *   transcript under 256 KiB whole: tests of stores pad it past that).
 */
export function checkpointScenarios(padding = ''): CheckpointScenario[] {
  const scenarios: CheckpointScenario[] = [];
  {
    const { make, checkpoint } = session();
    const entries = [checkpoint(), make.userText(`one${padding}`), checkpoint(), make.userText('two'), checkpoint(), make.userText('three')];
    scenarios.push({ name: 'the last of several checkpoints', texts: entries.map(json), start: 4 });
    scenarios.push({ name: 'none but the first entry', texts: [entries[0], entries[1]].map(json), start: 0 });
  }
  {
    const { make, checkpoint } = session();
    const entries = [checkpoint(), make.userText(`one${padding}`), checkpoint(), make.userText('two'), checkpoint('helper'), make.userText('three')];
    scenarios.push({ name: "a subagent's checkpoint is not the main agent's", texts: entries.map(json), start: 2 });
    scenarios.push({ name: "the subagent's, when asked for", texts: entries.map(json), agentId: 'helper', start: 4 });
    scenarios.push({ name: 'the agent asked for, a first line that does not parse: its last checkpoint', texts: ['not json', ...entries.slice(1).map(json)], agentId: 'helper', start: 4 });
  }
  {
    const { make, checkpoint } = session();
    const entries: SessionEntry[] = [checkpoint(), make.userText(`one${padding}`), checkpoint(), make.userText('two'), checkpoint(), make.userText('three')];
    const texts = entries.map(json);
    scenarios.push({ name: 'a first line that does not parse: no start (the agent cannot be told)', texts: ['not json', ...texts.slice(1)], start: 0 });
    scenarios.push({ name: 'a checkpoint whose entry before it is gone: an earlier one', texts: texts.filter((_, index) => index !== 3), start: 2 });
    scenarios.push({ name: 'a checkpoint whose entry before it does not parse: an earlier one', texts: texts.map((text, index) => (index === 3 ? '{"torn": ' : text)), start: 2 });
    scenarios.push({ name: 'a checkpoint naming another parent: an earlier one', texts: texts.map((text, index) => (index === 4 ? json({ ...entries[4], parentId: 'elsewhere' }) : text)), start: 2 });
    scenarios.push({ name: 'a checkpoint without a seq: an earlier one', texts: texts.map((text, index) => (index === 4 ? json({ ...entries[4], seq: undefined }) : text)), start: 2 });
    scenarios.push({ name: 'a checkpoint that does not parse: an earlier one', texts: texts.map((text, index) => (index === 4 ? text.slice(0, -3) : text)), start: 2 });
    const copy = { ...entries[2], seq: entries.length + 1, parentId: entries.at(-1)!.id };
    scenarios.push({ name: 'a copy of an earlier checkpoint, numbered and chained after the last entry: never started at', texts: [...texts, json(copy)], start: 4 });
    scenarios.push({ name: 'the word checkpoint in a message is no checkpoint', texts: [...texts, json(make.userText('"checkpoint"'))], start: 4 });
    const escaped = texts.map((text, index) => (index === 4 ? text.replace('"kind":"checkpoint"', '"kind":"\\u0063heckpoint"') : text));
    scenarios.push({ name: 'a checkpoint whose kind is written with an escape is missed: an earlier one (correct, only slower)', texts: escaped, start: 2 });
    const late = json({ padding: 'x'.repeat(2000), ...entries[4] });
    scenarios.push({ name: 'a checkpoint whose kind is written late in its object is missed: an earlier one', texts: texts.map((text, index) => (index === 4 ? late : text)), start: 2 });
  }
  {
    // A tool whose input says "kind":"checkpoint": its calls are candidates, parsed to tell.
    const callsAfter = (count: number) => {
      const { make, checkpoint } = session();
      const entries = [checkpoint(), make.userText(`one${padding}`), checkpoint()];
      for (let index = 0; index < count; index++) entries.push(make.next({ kind: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${index}`, name: 'Save', input: { kind: 'checkpoint' } }] } }));
      return entries.map(json);
    };
    scenarios.push({ name: 'entries that hold "kind":"checkpoint" in a tool input after the last checkpoint: it is found among the last 16 tried', texts: callsAfter(15), start: 2 });
    scenarios.push({ name: 'more than 16 such entries after it: the load gives up and reads the whole transcript', texts: callsAfter(16), start: 0 });
  }
  return scenarios;
}

/**
 * Writes a session compacted twice to `store`: while it is under 256 KiB a load with the hint
 * gives it whole; past that, every entry from its last checkpoint; and it resumes as written.
 */
export async function expectCompactedSessionLoadsFromCheckpoint(store: SessionStore): Promise<void> {
  const model = scriptedModel(['One.', '<summary>\n## Goal\nA.\n</summary>', `Two. ${'y'.repeat(300_000)}`, '<summary>\n## Goal\nB.\n</summary>', 'Three.']);
  const agent = createAgent({ model, store, sessionId: 'compacted' });
  const hinted = async () => {
    const entries: SessionEntry[] = [];
    for await (const entry of store.load('compacted', { fromCheckpoint: {} })) entries.push(entry);
    return entries;
  };
  await agent.run('First.').result;
  expect((await agent.compact()).compacted).toBe(true);
  expect(await hinted()).toEqual(await loadEntries(store, 'compacted'));
  await agent.run('Second.').result;
  expect((await agent.compact()).compacted).toBe(true);
  await agent.run('Third.').result;
  await agent.close();
  const whole = await loadEntries(store, 'compacted');
  const lastCheckpoint = whole.map((entry) => entry.kind).lastIndexOf('checkpoint');
  expect(lastCheckpoint).toBeGreaterThan(0);
  expect(await hinted()).toEqual(whole.slice(lastCheckpoint));
  const resumed = createAgent({ model: scriptedModel([]), store, resume: 'compacted' });
  await resumed.ready;
  expect(resumed.messages).toEqual(agent.messages);
  await resumed.close();
}
