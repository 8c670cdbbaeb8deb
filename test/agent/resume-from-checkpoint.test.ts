import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memoryPlanStore, memorySessionStore, recoverPlan, type Model, type SessionEntry, type SessionLoadOptions, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { fileSessionStore } from 'agent-harness/node';

const SUMMARY_ASK = 'is about to be replaced by a summary';
const BIG = 'lorem ipsum '.repeat(10_000); // about 120 KB a result: three make a file worth reading from a checkpoint

const note = defineTool({ name: 'note', description: 'Returns a long note.', inputSchema: z.object({}), readOnly: true, execute: () => BIG });
const save = defineTool({ name: 'save', description: 'Saves.', inputSchema: z.object({ text: z.string() }), execute: () => 'saved' });

/** A model that makes `calls` note calls per run, then answers; a summary when asked for one; a `save` call (which waits for approval) when the prompt says so. */
function sessionModel(calls = 2): Model {
  let made = 0;
  let id = 0;
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'claude-sonnet-4-6',
    async *stream(request) {
      const last = request.messages.at(-1)!;
      const text = typeof last.content === 'string' ? last.content : last.content.map((block) => ('text' in block ? block.text : '')).join('\n');
      let content: Array<Record<string, unknown>>;
      if (text.includes(SUMMARY_ASK)) content = [{ type: 'text', text: `<summary>\n## Goal\nTake notes (summary ${++id}).\n</summary>` }];
      else if (text.includes('save it')) content = [{ type: 'tool_use', id: `toolu_save_${++id}`, name: 'save', input: { text: 'the notes' } }];
      else if (last.role === 'user' && made < calls) {
        made++;
        content = [{ type: 'tool_use', id: `toolu_note_${++id}`, name: 'note', input: {} }];
      } else {
        made = 0;
        content = [{ type: 'text', text: 'Noted.' }];
      }
      const usage = { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
      yield { type: 'response', response: { message: { role: 'assistant', content }, stopReason: content[0]!.type === 'tool_use' ? 'tool_use' : 'end_turn', usage } } as never;
    },
  } as Model;
}

/** Writes a session with `compactions` manual compactions (each a checkpoint), ending on a call that waits for approval. */
async function writeSession(store: SessionStore, sessionId: string, compactions = 3): Promise<void> {
  const agent = createAgent({ model: sessionModel(), tools: [note, save], store, sessionId, context: { clearing: false } });
  for (let index = 0; index < compactions; index++) {
    expect((await agent.run(`Take notes, part ${index}.`).result).status).toBe('completed');
    expect((await agent.compact()).compacted).toBe(true);
  }
  expect((await agent.run('Take the last notes.').result).status).toBe('completed');
  expect((await agent.run('Now save it.').result).status).toBe('awaiting-approval');
  await agent.close();
}

/** The store, with its loads counted and the `fromCheckpoint` hint dropped when `whole`. */
function observed(store: SessionStore, whole = false) {
  const loads: Array<{ hinted: boolean; entries: number }> = [];
  const wrapped: SessionStore = {
    ...store,
    async *load(sessionId: string, options?: SessionLoadOptions) {
      const record = { hinted: options?.fromCheckpoint !== undefined, entries: 0 };
      loads.push(record);
      const passed = whole && options ? { ...(options.onWarning ? { onWarning: options.onWarning } : {}) } : options;
      for await (const entry of store.load(sessionId, passed)) {
        record.entries++;
        yield entry;
      }
    },
  };
  return { store: wrapped, loads };
}

/** Resumes the session and reports what a host sees: the snapshot, the warnings, the pending approvals; or the error. */
async function resumeOutcome(store: SessionStore, sessionId: string) {
  const warnings: string[] = [];
  const agent = createAgent({ model: sessionModel(), tools: [note, save], store, resume: sessionId, context: { clearing: false } });
  agent.on('warning', (event) => warnings.push(event.message));
  try {
    await agent.ready;
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error), warnings: [], pending: [] as string[] };
  }
  // The snapshot by its digest (a failure then prints a line, not megabytes).
  const snapshot = createHash('sha256').update(JSON.stringify(agent.snapshot())).digest('hex');
  const outcome = { snapshot, revision: agent.snapshot().revision, warnings, pending: agent.pendingApprovals.map((approval) => approval.toolUseId), messages: agent.messages.length };
  await agent.close();
  return outcome;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-checkpoint-resume-'));
  dirs.push(dir);
  return dir;
}

describe('resuming from the last checkpoint', () => {
  for (const kind of ['memory', 'file'] as const) {
    it(`${kind} store: a compacted session resumes as from its whole transcript, reading only the entries from its last checkpoint`, async () => {
      const dir = tempDir();
      const store = kind === 'memory' ? memorySessionStore() : fileSessionStore({ dir });
      await writeSession(store, 's');
      const whole = observed(store, true);
      const tail = observed(store);
      const expected = await resumeOutcome(whole.store, 's');
      const actual = await resumeOutcome(tail.store, 's');
      expect(actual).toEqual(expected);
      expect(actual.pending).toHaveLength(1);
      // The hinted load gave the part from the last compaction's checkpoint: far fewer entries.
      expect(tail.loads).toHaveLength(1);
      expect(tail.loads[0]!.hinted).toBe(true);
      expect(tail.loads[0]!.entries).toBeLessThan(whole.loads[0]!.entries / 2);
      const entries: SessionEntry[] = [];
      for await (const entry of store.load('s', { fromCheckpoint: {} })) entries.push(entry);
      expect(entries[0]).toMatchObject({ kind: 'checkpoint', reason: 'compaction' });
      // The resumed agent goes on writing where the session ended.
      const resumed = createAgent({ model: sessionModel(), tools: [note, save], store, resume: 's', context: { clearing: false } });
      await resumed.ready;
      const approval = resumed.pendingApprovals[0]!;
      const result = await resumed.resolveApproval(approval.id, { behavior: 'allow' }).result;
      expect(result.status).toBe('completed');
      await resumed.close();
      const again = await resumeOutcome(store, 's');
      expect(again.pending).toEqual([]);
    });
  }

  for (const kind of ['memory', 'file'] as const) {
    it(`${kind} store: a transcript under 256 KiB is read whole (looking for the checkpoint would cost what it saves)`, async () => {
      const store = kind === 'memory' ? memorySessionStore() : fileSessionStore({ dir: tempDir() });
      const agent = createAgent({ model: scriptedModel(['one', '<summary>\n## Goal\nNotes.\n</summary>', 'two']), store, sessionId: 'small' });
      await agent.run('First.').result;
      expect((await agent.compact()).compacted).toBe(true);
      await agent.run('Second.').result;
      await agent.close();
      const whole: SessionEntry[] = [];
      for await (const entry of store.load('small')) whole.push(entry);
      const hinted: SessionEntry[] = [];
      for await (const entry of store.load('small', { fromCheckpoint: {} })) hinted.push(entry);
      expect(hinted).toEqual(whole);
      expect(whole.filter((entry) => entry.kind === 'checkpoint')).toHaveLength(2);
    });
  }

  describe('file store: a transcript edited or damaged around the checkpoint', () => {
    async function written(): Promise<{ dir: string; file: string; lines: string[] }> {
      const dir = tempDir();
      await writeSession(fileSessionStore({ dir }), 's');
      const file = join(dir, 's.jsonl');
      return { dir, file, lines: readFileSync(file, 'utf8').split('\n').filter((line) => line !== '') };
    }
    const checkpointLines = (lines: string[]) => lines.flatMap((line, index) => (line.includes('"kind":"checkpoint"') ? [index] : []));
    const same = async (dir: string) => {
      const expected = await resumeOutcome(observed(fileSessionStore({ dir }), true).store, 's');
      const actual = await resumeOutcome(fileSessionStore({ dir }), 's');
      expect(actual).toEqual(expected);
      return actual;
    };

    it('an old checkpoint copied to the end (its number unchanged) is skipped with a warning, as a whole load skips it', async () => {
      const { dir, file, lines } = await written();
      appendFileSync(file, `${lines[checkpointLines(lines)[1]!]}\n`);
      const outcome = await same(dir);
      expect(outcome.warnings.join('\n')).toMatch(/stored twice/);
    });

    it('the last checkpoint copied again right after itself with the next number: loaded as a whole load loads it', async () => {
      const { dir, file, lines } = await written();
      const last = JSON.parse(lines.at(-1)!) as SessionEntry;
      const copy = { ...(JSON.parse(lines[checkpointLines(lines).at(-1)!]!) as SessionEntry), seq: last.seq + 1, parentId: last.id };
      appendFileSync(file, `${JSON.stringify(copy)}\n`);
      await same(dir);
    });

    it('a line damaged after the last checkpoint is reported with its line number, as by a whole load', async () => {
      const { dir, file, lines } = await written();
      const at = checkpointLines(lines).at(-1)! + 2;
      writeFileSync(file, `${lines.map((line, index) => (index === at ? '{"damaged": ' : line)).join('\n')}\n`);
      const outcome = await same(dir);
      expect(outcome.warnings.join('\n')).toContain(`line ${at + 1} `);
    });

    it('the entry before the last checkpoint removed: the load starts at an earlier checkpoint and reports the gap, as a whole load does', async () => {
      const { dir, file, lines } = await written();
      const at = checkpointLines(lines).at(-1)! - 1;
      writeFileSync(file, `${lines.filter((_, index) => index !== at).join('\n')}\n`);
      const outcome = await same(dir);
      expect(outcome.warnings.join('\n')).toMatch(/missing/);
    });

    it('lines moved after the last checkpoint fail the load with the error of a whole load', async () => {
      const { dir, file, lines } = await written();
      const at = checkpointLines(lines).at(-1)! + 1;
      const moved = [...lines];
      [moved[at], moved[at + 1]] = [moved[at + 1]!, moved[at]!];
      writeFileSync(file, `${moved.join('\n')}\n`);
      expect(await same(dir)).toMatchObject({ error: 'session-store-corrupt' });
    });

    it('a file cut anywhere around the last checkpoint (a process killed mid-write) resumes as a whole load resumes it', async () => {
      const { dir, file, lines } = await written();
      const whole = readFileSync(file);
      const at = checkpointLines(lines).at(-1)!;
      const offsetOf = (line: number) => Buffer.byteLength(lines.slice(0, line).map((text) => `${text}\n`).join(''));
      // Cuts: inside the line before the checkpoint, at its end, inside the checkpoint (its beginning, its middle), after it, inside the next line.
      const start = offsetOf(at);
      const cuts = [offsetOf(at - 1) + 10, start - 1, start, start + 40, start + Math.floor(Buffer.byteLength(lines[at]!) / 2), offsetOf(at + 1) - 1, offsetOf(at + 1), offsetOf(at + 1) + 25];
      for (const cut of cuts) {
        writeFileSync(file, whole.subarray(0, cut));
        await same(dir);
      }
    });

    it('damage before the last checkpoint is not read: the session resumes from the checkpoint (a whole load would report it)', async () => {
      const { dir, file, lines } = await written();
      const at = checkpointLines(lines)[1]! - 1;
      writeFileSync(file, `${lines.map((line, index) => (index === at ? 'not json' : line)).join('\n')}\n`);
      const whole = await resumeOutcome(observed(fileSessionStore({ dir }), true).store, 's');
      const tail = await resumeOutcome(fileSessionStore({ dir }), 's');
      expect(whole.warnings.join('\n')).toMatch(/Skipped line/);
      expect(tail.warnings).toEqual([]);
      expect('snapshot' in tail && tail.snapshot).toBe('snapshot' in whole && whole.snapshot);
      expect('snapshot' in tail).toBe(true);
    });
  });

  it('a plan the plan store lost is recovered from the whole transcript, which is read only then', async () => {
    const store = memorySessionStore();
    const plans = memoryPlanStore();
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'Outline, draft, revise.' }, 'toolu_plan')), 'Carrying it out.', '<summary>\n## Goal\nThe article.\n</summary>', 'Done.']);
    const agent = createAgent({ model, store, planStore: plans, sessionId: 'planned', permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }) });
    // Over 256 KiB: a transcript smaller than that is read whole anyway.
    await agent.run(`Plan the article. ${'Background. '.repeat(30_000)}`).result;
    expect((await agent.compact()).compacted).toBe(true);
    await agent.run('Go on.').result;
    const name = agent.plan!.name;
    await agent.close();
    const resume = async () => {
      const seen = observed(store);
      const resumed = createAgent({ model: scriptedModel([]), store: seen.store, planStore: plans, resume: 'planned' });
      await resumed.ready;
      await resumed.close();
      return seen.loads;
    };
    // The plan is in the store: only the part from the checkpoint is read.
    expect(await resume()).toEqual([{ hinted: true, entries: expect.any(Number) }]);
    // The plan store loses it (a blank file counts as missing).
    await plans.write(name, '');
    const loads = await resume();
    expect(loads.map((load) => load.hinted)).toEqual([true, false]);
    const whole: SessionEntry[] = [];
    for await (const entry of store.load('planned')) whole.push(entry);
    expect(loads[1]!.entries).toBe(whole.length);
    expect(await plans.read(name)).toBe((await recoverPlan({ entries: whole, slug: name.replace(/\.md$/, '') }))!.text);
    expect(await plans.read(name)).toBe('Outline, draft, revise.');
  });
});
