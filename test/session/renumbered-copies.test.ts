// An entry stored twice under two numbers (a transcript line copied with a new seq, a row a
// custom store wrote twice) is one entry: loading applies it once, whatever its kind, and an
// entry reusing another's id with other content fails the load instead of being folded as both.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, SessionStoreCorruptError, type SessionEntry, type SessionStore } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const dir = mkdtempSync(join(tmpdir(), 'ah-renumbered-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function all(store: SessionStore, sessionId: string): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  for await (const entry of store.load(sessionId)) entries.push(entry);
  return entries;
}

/**
 * A session that asked for approval, was answered, and ran the call; returns its store and what
 * ran. A read-only call before it runs while the approval waits, so its result is stored in a
 * `tool-result` entry (the batch's last answer is stored only in the message carrying it).
 */
async function answeredSession(store: SessionStore) {
  const executed: string[] = [];
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), execute: ({ input }) => (executed.push(input.text), `wrote ${input.text}`) });
  const look = defineTool({ name: 'look', description: 'Looks.', inputSchema: z.object({}), readOnly: true, execute: () => 'looked' });
  const asked = createAgent({ model: scriptedModel([turn(toolCall('look', {}, 'l1'), toolCall('write', { text: 'a' }, 'w1')), 'Done.']), tools: [look, write], store });
  const [approval] = (await asked.run('Write.').result).pendingApprovals;
  await asked.resolveApproval(approval!.id, { behavior: 'allow' }).result;
  await asked.close();
  expect(executed).toEqual(['a']);
  return { sessionId: asked.sessionId, write, executed };
}

const stores: Array<[string, () => SessionStore]> = [
  ['memory', () => memorySessionStore()],
  ['file', () => fileSessionStore({ dir: mkdtempSync(join(dir, 'store-')) })],
];

describe.each(stores)('an entry stored again under a new number (%s store)', (_name, makeStore) => {
  it.each([
    ['message', 'the prompt', (entry: SessionEntry) => entry.kind === 'message' && entry.message.role === 'user' && JSON.stringify(entry.message.content).includes('Write.')],
    ['message', "the model's tool call", (entry: SessionEntry) => entry.kind === 'message' && entry.message.role === 'assistant' && JSON.stringify(entry.message.content).includes('tool_use')],
    ['message', "the model's last answer", (entry: SessionEntry) => entry.kind === 'message' && JSON.stringify(entry.message.content).includes('Done.')],
    ['call-allowed', 'the allowed call', (entry: SessionEntry) => entry.kind === 'call-allowed'],
    ['approval-resolved', 'the answer', (entry: SessionEntry) => entry.kind === 'approval-resolved'],
    ['tool-result', 'the result', (entry: SessionEntry) => entry.kind === 'tool-result'],
    ['approval-pending', 'the approval', (entry: SessionEntry) => entry.kind === 'approval-pending'],
  ] as const)(
    'a copy of a %s entry (%s) appended with the next seq is applied once, with a warning; the session continues',
    async (kind, _what, pick) => {
      const store = makeStore();
      const { sessionId, write, executed } = await answeredSession(store);
      const entries = await all(store, sessionId);
      const original = entries.find(pick)!;
      expect(original, kind).toBeDefined();
      const revision = entries.at(-1)!.seq;
      await store.append(sessionId, [{ ...original, seq: revision + 1, parentId: entries.at(-1)!.id }], { expectedRevision: revision });

      const resumed = createAgent({ model: scriptedModel(['Again.']), tools: [write], store, resume: sessionId });
      const warnings: string[] = [];
      resumed.on('warning', (event) => warnings.push(event.message));
      await resumed.ready;
      expect(warnings.join('\n')).toMatch(new RegExp(`entry ${revision + 1} \\(${kind}\\) is a copy of entry ${original.seq}`));
      // No message appears twice, nothing runs again, and the session is still writable.
      const texts = resumed.messages.map((message) => JSON.stringify(message.content));
      expect(new Set(texts).size).toBe(texts.length);
      const result = await resumed.run('Once more.').result;
      expect(result.status).toBe('completed');
      expect(executed).toEqual(['a']);
      await resumed.close();
      const again = createAgent({ model: scriptedModel([]), tools: [write], store, resume: sessionId });
      await again.ready;
      expect(again.messages).toEqual(resumed.messages);
      await again.close();
    },
  );

  it('an entry with the id of an earlier one but other content: the store refuses to append it, and a load that meets one (stored another way) fails, naming both', async () => {
    const store = makeStore();
    const { sessionId, write } = await answeredSession(store);
    const entries = await all(store, sessionId);
    const original = entries.find((entry) => entry.kind === 'message')!;
    const revision = entries.at(-1)!.seq;
    const altered = { ...original, seq: revision + 1, parentId: entries.at(-1)!.id, message: { role: 'user', content: 'Something else.' } } as SessionEntry;
    await expect(store.append(sessionId, [altered], { expectedRevision: revision })).rejects.toThrow(new RegExp(`entry ${revision + 1} of session "${sessionId}" with the id "${original.id}", which entry ${original.seq} already has with other content`));
    expect((await all(store, sessionId)).length).toBe(entries.length);
    // What a store that did not check (a custom one, a restored backup) may hold: the load refuses it.
    const damaged: SessionStore = { ...store, load: async function* (id, options) {
      yield* store.load(id, options);
      yield altered;
    } };
    const resumed = createAgent({ model: scriptedModel([]), tools: [write], store: damaged, resume: sessionId });
    const error = await resumed.ready.then(() => undefined, (caught: unknown) => caught);
    expect(SessionStoreCorruptError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toContain(`transcript entry ${revision + 1} (message)`);
    expect((error as Error).message).toContain(`entry ${original.seq}`);
  });
});

describe('a transcript line copied by hand with a new seq while an approval waits (file store)', () => {
  it.each(["the model's tool call", 'the pending approval'])('a copy of %s: the answered call runs once and the model is sent no repeated call', async (what) => {
    const storeDir = mkdtempSync(join(dir, 'hand-'));
    const executed: string[] = [];
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), execute: ({ input }) => (executed.push(input.text), `wrote ${input.text}`) });
    const asked = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'a' }, 'w1'))]), tools: [write], store: fileSessionStore({ dir: storeDir }) });
    await asked.run('Write.').result;
    await asked.close();
    const file = join(storeDir, `${asked.sessionId}.jsonl`);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as SessionEntry);
    const original = lines.find((entry) => (what === 'the pending approval' ? entry.kind === 'approval-pending' : entry.kind === 'message' && entry.message.role === 'assistant'))!;
    const copy = { ...original, seq: lines.at(-1)!.seq + 1, parentId: lines.at(-1)!.id };
    writeFileSync(file, [...lines, copy].map((line) => `${JSON.stringify(line)}\n`).join(''));

    const model = scriptedModel(['Written.']);
    const resumed = createAgent({ model, tools: [write], store: fileSessionStore({ dir: storeDir }), resume: asked.sessionId });
    await resumed.ready;
    expect(resumed.pendingApprovals).toHaveLength(1);
    const result = await resumed.resolveApproval(resumed.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
    expect(executed).toEqual(['a']);
    const calls = resumed.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).filter((block) => block.type === 'tool_use');
    expect(calls).toHaveLength(1);
    await resumed.close();
  });
});
