// Attack class: a file transcript edited by hand. A line repeated word for word (pasted twice, a
// merge of two copies) must not apply twice: a repeated assistant message became a second call
// that ran again after its one approval. Lines moved or renumbered must fail the load, naming
// the entry, instead of silently losing the pending approval or replaying the history wrongly.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent, forkSession, SessionStoreCorruptError, type WarningEvent } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { counting } from './counting-write.js';

const dir = mkdtempSync(join(tmpdir(), 'attack-edited-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const allowAll = async () => ({ behavior: 'allow' as const });

/** A session with one finished call and one waiting for approval; its transcript lines. */
async function waitingSession() {
  const { runs, tools } = counting();
  const first = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'a' }, 'toolu_a')), 'ok']), tools, store: fileSessionStore({ dir }), canUseTool: allowAll });
  await first.run('one').result;
  await first.close();
  const second = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'b' }, 'toolu_b'))]), tools, store: fileSessionStore({ dir }), resume: first.sessionId });
  await second.run('two').result;
  expect(second.pendingApprovals).toHaveLength(1);
  await second.close();
  runs.length = 0;
  const file = join(dir, `${first.sessionId}.jsonl`);
  return { runs, tools, sessionId: first.sessionId, file, lines: readFileSync(file, 'utf8').trim().split('\n') };
}

const kindOf = (line: string) => (JSON.parse(line) as { kind: string }).kind;

describe('attack: a file transcript edited by hand', () => {
  it('any line repeated word for word: skipped with a warning; the approval runs its call once, with a valid history', async () => {
    const { lines } = await waitingSession();
    for (let index = 0; index < lines.length; index++) {
      const { runs, tools, sessionId, file, lines: own } = await waitingSession();
      writeFileSync(file, `${[...own.slice(0, index + 1), own[index]!, ...own.slice(index + 1)].join('\n')}\n`);
      const model = scriptedModel(['done']);
      const resumed = createAgent({ model, tools, store: fileSessionStore({ dir }), resume: sessionId, canUseTool: allowAll });
      const warnings: WarningEvent[] = [];
      resumed.on('warning', (event) => warnings.push(event));
      await resumed.ready;
      expect(resumed.pendingApprovals, `line ${index + 1} (${kindOf(own[index]!)}) repeated`).toHaveLength(1);
      const result = await resumed.resolveApproval(resumed.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
      expect(result.status).toBe('completed');
      expect(runs, `line ${index + 1} (${kindOf(own[index]!)}) repeated`).toEqual(['b']);
      expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
      expect(warnings.map((warning) => warning.message)).toEqual([expect.stringMatching(new RegExp(`entry ${index + 1} \\(${kindOf(own[index]!)}\\) is stored twice`))]);
      await resumed.close();
    }
  });

  it('two lines swapped anywhere: the load fails with SessionStoreCorruptError naming the entry; nothing runs', async () => {
    const { lines } = await waitingSession();
    for (let index = 0; index + 1 < lines.length; index++) {
      const { runs, tools, sessionId, file, lines: own } = await waitingSession();
      const edited = [...own];
      [edited[index], edited[index + 1]] = [edited[index + 1]!, edited[index]!];
      writeFileSync(file, `${edited.join('\n')}\n`);
      const model = scriptedModel(['done']);
      const resumed = createAgent({ model, tools, store: fileSessionStore({ dir }), resume: sessionId, canUseTool: allowAll });
      const error = await resumed.ready.then(() => undefined, (caught: unknown) => caught);
      expect(SessionStoreCorruptError.isInstance(error), `lines ${index + 1} and ${index + 2} swapped: ${String(error)}`).toBe(true);
      expect((error as Error).message).toContain(`transcript entry ${index + 1} (${kindOf(own[index]!)}) is stored after entry ${index + 2}`);
      expect((error as Error).message).toMatch(/order of their seq numbers/);
      expect(model.requests).toEqual([]);
      expect(runs).toEqual([]);
    }
  });

  it("an entry's seq changed to an earlier number: the load fails naming it, and so does forking it", async () => {
    const { tools, sessionId, file, lines } = await waitingSession();
    const edited = lines.map((line, index) => (index === lines.length - 2 ? JSON.stringify({ ...JSON.parse(line), seq: 3 }) : line));
    writeFileSync(file, `${edited.join('\n')}\n`);
    const resumed = createAgent({ model: scriptedModel(['done']), tools, store: fileSessionStore({ dir }), resume: sessionId });
    await expect(resumed.ready).rejects.toThrow(/transcript entry 3 \(approval-pending\) is stored after entry \d+: entries are out of order, or an entry's seq was changed/);
    await expect(forkSession(fileSessionStore({ dir }), sessionId)).rejects.toSatisfy((error: unknown) => SessionStoreCorruptError.isInstance(error));
  });

  const deep = (levels: number) => `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;
  it.each([
    ['a message', (seq: number) => `{"$schemaVersion":2,"seq":${seq},"id":"deep","kind":"message","message":{"role":"user","content":[{"type":"text","text":"hi","extra":${deep(100_000)}}]}}`],
    ['a tool-state value', (seq: number) => `{"$schemaVersion":2,"seq":${seq},"id":"deep","kind":"tool-state","key":"k","value":${deep(100_000)}}`],
    ['a checkpoint', (seq: number) => `{"$schemaVersion":2,"seq":${seq},"id":"deep","kind":"checkpoint","reason":"fork","state":${deep(100_000)}}`],
    ['an entry of a kind this build does not know', (seq: number) => `{"$schemaVersion":2,"seq":${seq},"id":"deep","kind":"future-kind","extra":${deep(100_000)}}`],
  ])('a line nested 100000 levels deep in %s: the load fails with SessionStoreCorruptError naming the entry, never a RangeError; no request is sent', async (_name, line) => {
    const first = createAgent({ model: scriptedModel(['Hi.']), store: fileSessionStore({ dir }) });
    await first.run('One.').result;
    await first.close();
    const seq = first.snapshot().revision + 1;
    appendFileSync(join(dir, `${first.sessionId}.jsonl`), `${line(seq)}\n`);
    const model = scriptedModel(['x']);
    const resumed = createAgent({ model, store: fileSessionStore({ dir }), resume: first.sessionId });
    const error = await resumed.ready.then(() => undefined, (caught: unknown) => caught);
    expect(SessionStoreCorruptError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toContain(`transcript entry ${seq} (`);
    expect((error as Error).message).toContain('is nested deeper than 162 levels');
    expect(model.requests).toEqual([]);
  });
});
