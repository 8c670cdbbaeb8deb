// Attack class: spilled tool outputs after a restart. A long result is kept aside (`context.spill`)
// and paged with `ReadToolOutput`; the kept output lives in the session (a `spill` entry), not in a
// file of its own. A new agent instance on the same store (file, PostgreSQL, Redis) must still page
// it, also after a compaction; a handle the model tampers with (a path, an inherited property name,
// another session's handle) must be a clear tool error; a fork's spills stay its own; deleting the
// session deletes them; a transcript whose spill entry was taken out or altered answers with a tool
// error, never a crash.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type Message, type SessionStore, type ToolResultBlock } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { serverBackends } from './server-backends.js';

interface Backend {
  kind: string;
  reachable: boolean;
  open: () => { stores: () => SessionStore; cleanup: () => Promise<void>; dir?: string };
}

const backends: Backend[] = [
  {
    kind: 'file',
    reachable: true,
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), 'attack-spill-'));
      return { dir, stores: () => fileSessionStore({ dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  ...serverBackends.map((server) => ({ kind: server.kind, reachable: server.reachable, open: () => server.open() })),
];

/** 3,000 characters or so, each line naming `tag`, so a page read back says whose output it is. */
const longOutput = (tag: string) => Array.from({ length: 100 }, (_, line) => `line ${line}: ${tag}`).join('\n');

const dumpTool = (tag: string, runs: string[] = []) =>
  defineTool({ name: 'dump', description: 'Dumps.', inputSchema: z.object({}), readOnly: true, execute: ({ toolUseId }) => (runs.push(toolUseId), longOutput(tag)) });

const context = { spill: { maxChars: 1_000 } };

/** The text of the answer to `toolUseId` in `messages`. */
function answer(messages: readonly Message[], toolUseId: string): ToolResultBlock {
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result' && (block as ToolResultBlock).tool_use_id === toolUseId) return block as ToolResultBlock;
  }
  throw new Error(`no answer to ${toolUseId}`);
}
/** The pages that cover a {@link longOutput} with the spill limit of {@link context} (1,000 characters a page). */
const pages = [0, 1_000, 2_000].map((offset) => ({ handle: 'out_toolu_dump', offset }));
/** The text of pages read in order, without their headers. */
const wholeText = (answers: readonly ToolResultBlock[]) => answers.map((read) => textOf(read).slice(textOf(read).indexOf('\n') + 1)).join('');
const textOf = (result: ToolResultBlock) => (typeof result.content === 'string' ? result.content : result.content.map((block) => ('text' in block ? block.text : '')).join(''));

/** A session whose one `dump` call was spilled as "out_toolu_dump", stored on `store`. */
async function spilledSession(store: SessionStore, tag = 'first-session', sessionId?: string) {
  const agent = createAgent({ model: scriptedModel([turn(toolCall('dump', {}, `toolu_dump`)), 'Dumped.']), tools: [dumpTool(tag)], store, context, ...(sessionId ? { sessionId } : {}) });
  expect((await agent.run('dump it').result).status).toBe('completed');
  expect(textOf(answer(agent.messages, 'toolu_dump'))).toContain('It is kept as "out_toolu_dump"');
  await agent.close();
  return agent.sessionId;
}

/** Resumes `sessionId` in a new agent whose model reads `handles` with ReadToolOutput, one call each; the answers by handle. */
async function readBack(store: SessionStore, sessionId: string, inputs: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) {
  const runs: string[] = [];
  const model = scriptedModel([turn(...inputs.map((input, index) => toolCall('ReadToolOutput', input, `toolu_read_${index}`))), 'Read.']);
  const agent = createAgent({ model, tools: [dumpTool('resumed', runs)], store, resume: sessionId, context, ...extra });
  const result = await agent.run('read the kept output').result;
  expect(result.status).toBe('completed');
  for (const request of model.requests) expect(validateMessagesRequest(request.messages)).toBeUndefined();
  const answers = inputs.map((_, index) => answer(agent.messages, `toolu_read_${index}`));
  await agent.close();
  expect(runs).toEqual([]);
  return answers;
}

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

for (const backend of backends) {
  describe.skipIf(!backend.reachable)(`attack: spilled outputs after a restart (${backend.kind} store)`, () => {
    const open = () => {
      const opened = backend.open();
      cleanups.push(opened.cleanup);
      return opened;
    };

    it('a new agent instance pages the output whole and searches it; its pages are never spilled again', async () => {
      const opened = open();
      const sessionId = await spilledSession(opened.stores());
      const answers = await readBack(opened.stores(), sessionId, [...pages, { handle: 'out_toolu_dump', search: 'line 99:' }, { handle: 'out_toolu_dump', search: 'first-session' }]);
      expect(wholeText(answers.slice(0, pages.length))).toBe(longOutput('first-session'));
      expect(textOf(answers[pages.length]!)).toContain('line 99: first-session');
      // A listing of every line is a page's worth, not the whole output kept aside again.
      const listing = textOf(answers[pages.length + 1]!);
      expect(listing).toMatch(/100 line\(s\) contain "first-session"\. Showing the first \d+/);
      for (const read of answers) {
        expect(read.is_error).toBeFalsy();
        expect(textOf(read)).not.toContain('too long to show in full');
        // A page or a listing within the spill limit, plus its one-line header.
        expect(textOf(read).length).toBeLessThan(context.spill.maxChars + 200);
      }
    });

    it('after a compaction and a restart, the output is still kept', async () => {
      const opened = open();
      const sessionId = await spilledSession(opened.stores());
      const compacting = createAgent({ model: scriptedModel(['<summary>Dumped a long output, kept as out_toolu_dump.</summary>']), tools: [dumpTool('x')], store: opened.stores(), resume: sessionId, context });
      expect((await compacting.compact()).compacted).toBe(true);
      await compacting.close();
      expect(wholeText(await readBack(opened.stores(), sessionId, pages))).toBe(longOutput('first-session'));
    });

    it('tampered handles are tool errors: a path, an inherited property, a handle of another session', async () => {
      const opened = open();
      const sessionId = await spilledSession(opened.stores());
      // Another session on the same store keeps an output under its own handle.
      await spilledSession(opened.stores(), 'other-session');
      const handles = ['../../../../etc/passwd', 'out_toolu_dump/../../x', '__proto__', 'constructor', 'out_toolu_other', `${sessionId}/out_toolu_dump`, 'out_toolu_dump\u0000'];
      const answers = await readBack(opened.stores(), sessionId, handles.map((handle) => ({ handle })));
      answers.forEach((result, index) => {
        expect(result.is_error, handles[index]).toBe(true);
        expect(textOf(result)).toContain('No kept output has the handle');
        expect(textOf(result)).not.toMatch(/root:|other-session|first-session/);
      });
    });

    it("a fork's spills stay its own, and the source's stay the source's", async () => {
      const opened = open();
      const sourceStore = opened.stores();
      const source = createAgent({ model: scriptedModel([turn(toolCall('dump', {}, 'toolu_dump')), 'Dumped.']), tools: [dumpTool('before-fork')], store: sourceStore, context });
      await source.run('dump it').result;
      const fork = await source.fork();
      await source.close();
      // Each side spills a new output under the same call id (each model picks its own ids).
      const forkRun = createAgent({ model: scriptedModel([turn(toolCall('dump', {}, 'toolu_after')), 'Dumped.']), tools: [dumpTool('in-the-fork')], store: opened.stores(), resume: fork.sessionId, context });
      await fork.close();
      await forkRun.run('dump again').result;
      await forkRun.close();
      const sourceRun = createAgent({ model: scriptedModel([turn(toolCall('dump', {}, 'toolu_after')), 'Dumped.']), tools: [dumpTool('in-the-source')], store: opened.stores(), resume: source.sessionId, context });
      await sourceRun.run('dump again').result;
      await sourceRun.close();
      const inFork = await readBack(opened.stores(), fork.sessionId, [{ handle: 'out_toolu_dump' }, { handle: 'out_toolu_after' }]);
      expect(textOf(inFork[0]!)).toContain('line 0: before-fork');
      expect(textOf(inFork[1]!)).toContain('line 0: in-the-fork');
      const inSource = await readBack(opened.stores(), source.sessionId, [{ handle: 'out_toolu_after' }]);
      expect(textOf(inSource[0]!)).toContain('line 0: in-the-source');
      expect(textOf(inSource[0]!)).not.toContain('in-the-fork');
    });

    it('a fork cut before a spilled call does not carry that output (its state, its transcript), and keeps those it still names', async () => {
      const opened = open();
      const source = createAgent({ model: scriptedModel([turn(toolCall('dump', {}, 'toolu_dump')), 'Dumped.', turn(toolCall('dump', {}, 'toolu_later')), 'Again.']), tools: [dumpTool('secret-later')], store: opened.stores(), context });
      await source.run('dump it').result;
      const keptMessages = source.messages.length;
      await source.run('dump again').result;
      const fork = await source.fork({ upTo: keptMessages });
      await source.close();
      expect(Object.keys(fork.snapshot().spilled ?? {})).toEqual(['out_toolu_dump']);
      await fork.close();
      expect(JSON.stringify(await loadEntries(opened.stores(), fork.sessionId))).not.toContain('out_toolu_later');
      const [kept, cut] = await readBack(opened.stores(), fork.sessionId, [{ handle: 'out_toolu_dump' }, { handle: 'out_toolu_later' }]);
      expect(kept!.is_error).toBeFalsy();
      expect(cut!.is_error).toBe(true);
    });

    it('deleting the session deletes its spilled outputs: a new session under the same id cannot read them', async () => {
      const opened = open();
      const sessionId = await spilledSession(opened.stores(), 'deleted', `spill-delete-${Math.random().toString(36).slice(2)}`);
      const store = opened.stores();
      await store.delete(sessionId);
      const fresh = createAgent({ model: scriptedModel([turn(toolCall('ReadToolOutput', { handle: 'out_toolu_dump' }, 'toolu_read')), 'None.']), tools: [dumpTool('x')], store, sessionId, context });
      await fresh.run('read it').result;
      const result = answer(fresh.messages, 'toolu_read');
      expect(result.is_error).toBe(true);
      expect(textOf(result)).not.toContain('deleted');
      await fresh.close();
    });
  });
}

describe('attack: a session file whose spill entry was tampered with (file store)', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Rewrites the stored `spill` entry with `change`, or takes it out when `change` returns undefined. */
  function tamper(sessionId: string, change: (entry: Record<string, unknown>) => Record<string, unknown> | undefined) {
    const file = join(dir, readdirSync(dir).find((name) => name.startsWith(sessionId) && name.endsWith('.jsonl'))!);
    const lines = readFileSync(file, 'utf8').split('\n');
    const out = lines.flatMap((line) => {
      if (!line.includes('"kind":"spill"')) return [line];
      const changed = change(JSON.parse(line) as Record<string, unknown>);
      return changed ? [JSON.stringify(changed)] : [];
    });
    writeFileSync(file, out.join('\n'));
  }

  async function resumeAndRead(sessionId: string) {
    const model = scriptedModel([turn(toolCall('ReadToolOutput', { handle: 'out_toolu_dump' }, 'toolu_read')), 'Read.']);
    const agent = createAgent({ model, tools: [dumpTool('x')], store: fileSessionStore({ dir }), resume: sessionId, context });
    try {
      await agent.ready;
    } catch (error) {
      return { loadError: error as Error, result: undefined, read: undefined };
    }
    const result = await agent.run('read it').result;
    for (const request of model.requests) expect(validateMessagesRequest(request.messages)).toBeUndefined();
    await agent.close();
    return { loadError: undefined, result, read: answer(agent.messages, 'toolu_read') };
  }

  it('an output whose text was replaced by a number: a clear load error or a tool error, never a crash', async () => {
    dir = mkdtempSync(join(tmpdir(), 'attack-spill-tamper-'));
    const sessionId = await spilledSession(fileSessionStore({ dir }));
    tamper(sessionId, (entry) => ({ ...entry, output: { ...(entry.output as object), text: 12 } }));
    const outcome = await resumeAndRead(sessionId);
    expect(outcome.loadError).toBeUndefined();
    expect(outcome.read!.is_error).toBe(true);
    expect(textOf(outcome.read!)).toContain('The output kept as "out_toolu_dump" is damaged');
  });

  it('the spill entry taken out of the file: the session loads (with a warning), and the read is a tool error', async () => {
    dir = mkdtempSync(join(tmpdir(), 'attack-spill-tamper-'));
    const sessionId = await spilledSession(fileSessionStore({ dir }));
    tamper(sessionId, () => undefined);
    const outcome = await resumeAndRead(sessionId);
    expect(outcome.loadError).toBeUndefined();
    expect(outcome.result!.status).toBe('completed');
    expect(outcome.read!.is_error).toBe(true);
    expect(textOf(outcome.read!)).toContain('No kept output has the handle "out_toolu_dump"');
  });

  it('a handle changed to a path in the entry: the kept output is not found by it, and nothing outside the session is read', async () => {
    dir = mkdtempSync(join(tmpdir(), 'attack-spill-tamper-'));
    const sessionId = await spilledSession(fileSessionStore({ dir }));
    tamper(sessionId, (entry) => ({ ...entry, handle: '../../../../etc/passwd' }));
    const outcome = await resumeAndRead(sessionId);
    if (outcome.loadError) expect(outcome.loadError.message).toMatch(/spill|handle/);
    else {
      expect(outcome.read!.is_error).toBe(true);
      expect(textOf(outcome.read!)).not.toContain('root:');
    }
  });
});
