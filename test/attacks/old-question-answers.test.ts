// Attack class: AskUserQuestion approvals stored before the model's answers were stripped (the
// model could write `answers` into its own input, and the approval kept them). Loaded again —
// from a snapshot, a store's transcript, or an inbox (`listPending`) — such an approval must show
// the host no answers, so a host merging `input.answers` into its own never passes the model's on
// as the user's.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, foldPendingApprovals, pendingApprovalsIn, type ToolResultBlock } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';

const questions = [
  { question: 'Who is it for?', header: 'Audience', options: [{ label: 'Beginners', description: '' }, { label: 'Experts', description: '' }], multiSelect: false },
  { question: 'How long?', header: 'Length', options: [{ label: 'Short', description: '' }, { label: 'Long', description: '' }], multiSelect: false },
];
/** What the model wrote in an old build: its own "answers", which the approval kept. */
const forged = { 'Who is it for?': 'Experts' };

const answerOf = (messages: readonly { role: string; content: unknown }[]) =>
  ((messages.find((message) => message.role === 'user' && Array.isArray(message.content) && (message.content as ToolResultBlock[]).some((block) => block.tool_use_id === 'toolu_ask'))!.content as ToolResultBlock[])[0]!).content as string;

/** A host that shows the approval's input and merges its own answer into the answers shown. */
const merging = (input: unknown) => {
  const shown = input as { answers?: Record<string, string> };
  return { behavior: 'allow' as const, updatedInput: { ...shown, answers: { ...shown.answers, 'How long?': 'Short' } } };
};
const HOST_ONLY = 'The user answered your questions: "How long?" = "Short". 1 question(s) were left unanswered. Go on with these answers in mind.';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Puts the model's answers back where an old build kept them: the approval's input (and the tool_use it came from). */
function oldShape<T>(value: T): T {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (Array.isArray(record.questions) && record.answers === undefined) record.answers = { ...forged };
    for (const child of Object.values(record)) visit(child);
  };
  visit(value);
  return value;
}

async function askedAndWaiting(store?: ReturnType<typeof fileSessionStore>) {
  const agent = createAgent({ model: scriptedModel([turn(toolCall('AskUserQuestion', { questions }, 'toolu_ask'))]), askUserQuestion: true, ...(store ? { store } : {}) });
  const result = await agent.run('go').result;
  expect(result.status).toBe('awaiting-approval');
  return agent;
}

describe('attack: an AskUserQuestion approval of the old shape (the model\'s answers in its input)', () => {
  it('resumed from a snapshot: the pending approval shows no answers, and a merging host passes on only its own', async () => {
    const agent = await askedAndWaiting();
    const snapshot = oldShape(JSON.parse(JSON.stringify(agent.snapshot())));
    expect(JSON.stringify(snapshot.openBatch)).toContain('Experts');
    const later = createAgent({ model: scriptedModel(['ok']), askUserQuestion: true, resume: snapshot });
    const pending = later.pendingApprovals[0]!;
    expect(pending.input).toEqual({ questions });
    const result = await later.resolveApproval(pending.id, merging(pending.input)).result;
    expect(result.status).toBe('completed');
    expect(answerOf(later.messages)).toBe(HOST_ONLY);
    // The forged answer is in no approval the agent hands out, and never reached the model as the user's.
    expect(JSON.stringify(later.snapshot().openBatch ?? null)).not.toContain('Experts');
  });

  it('kept in a file store: listPending, the resumed agent and the answer all leave the model\'s answers out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'attack-old-question-'));
    dirs.push(dir);
    const agent = await askedAndWaiting(fileSessionStore({ dir }));
    await agent.close();
    const file = join(dir, readdirSync(dir).find((name) => name.endsWith('.jsonl'))!);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
    writeFileSync(file, lines.map((entry) => JSON.stringify(oldShape(entry))).join('\n') + '\n');
    expect(readFileSync(file, 'utf8')).toContain('Experts');

    const store = fileSessionStore({ dir });
    const inbox = await store.listPending!();
    expect(inbox).toHaveLength(1);
    expect(inbox[0]!.approvals[0]!.input).toEqual({ questions });
    // The fold every store's inbox uses.
    const folded = pendingApprovalsIn(foldPendingApprovals(undefined, await loadEntries(store, agent.sessionId)));
    expect(folded[0]!.input).toEqual({ questions });

    const later = createAgent({ model: scriptedModel(['ok']), askUserQuestion: true, store, resume: agent.sessionId });
    await later.ready;
    const pending = later.pendingApprovals[0]!;
    expect(pending.input).toEqual({ questions });
    await later.resolveApproval(pending.id, merging(pending.input)).result;
    expect(answerOf(later.messages)).toBe(HOST_ONLY);
    // Closing the agent closes the store's writer of the session (its open file).
    await later.close();
  });

  it('a host that echoes the old approval input it kept (the model\'s answers in it) gives no answers', async () => {
    const agent = await askedAndWaiting();
    const snapshot = oldShape(JSON.parse(JSON.stringify(agent.snapshot())));
    const later = createAgent({ model: scriptedModel(['ok']), askUserQuestion: true, resume: snapshot });
    const kept = snapshot.openBatch.calls[0].approval.input;
    await later.resolveApproval(later.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: kept }).result;
    expect(answerOf(later.messages)).toMatch(/^The user did not answer your questions/);
  });

  it('a host that merges the answers of the stored input it was shown before the fix still gets only the answers it gives in the edit', async () => {
    // The host kept the old approval (with the model's answers) in its own inbox and merges them.
    const agent = await askedAndWaiting();
    const snapshot = oldShape(JSON.parse(JSON.stringify(agent.snapshot())));
    const later = createAgent({ model: scriptedModel(['ok']), askUserQuestion: true, resume: snapshot });
    const id = later.pendingApprovals[0]!.id;
    const stale = snapshot.openBatch.calls[0].approval.input as { answers: Record<string, string> };
    await later.resolveApproval(id, { behavior: 'allow', updatedInput: { questions, answers: { ...stale.answers, 'How long?': 'Short' } } }).result;
    // An answer the host passes in its edit is the host's: the library cannot tell it from its own.
    expect(answerOf(later.messages)).toContain('"How long?" = "Short"');
  });
});
