import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type PermissionDecision, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

// An allowed call's input is stored once in the transcript, by its `call-allowed` entry: the
// `permission-decision` entry beside it leaves it out (a 50 KB article written by `Write` went in
// three times: the model's call, the decision, the allowed call). The event keeps it whole.

const ARTICLE = 'Tide pools are rocky pockets of sea water left behind at low tide. '.repeat(750);
const write = () => defineTool({ name: 'Write', description: 'Writes a file.', inputSchema: z.object({ file_path: z.string(), content: z.string() }), execute: () => 'Wrote the file.' });

async function entriesOf(store: SessionStore, sessionId: string): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  for await (const entry of store.load(sessionId)) entries.push(entry);
  return entries;
}

const ofKind = <K extends SessionEntry['kind']>(entries: SessionEntry[], kind: K) => entries.filter((entry): entry is Extract<SessionEntry, { kind: K }> => entry.kind === kind);

describe('the stored permission decision of an allowed call', () => {
  it('leaves the input to the call-allowed entry; the event has it; the article is stored twice, not three times', async () => {
    const store = memorySessionStore();
    const model = scriptedModel([turn(toolCall('Write', { file_path: 'a.md', content: ARTICLE })), 'Written.']);
    const agent = createAgent({ model, store, tools: [write()], canUseTool: () => ({ behavior: 'allow' }), todoWrite: false, exitPlanMode: false });
    const events: PermissionDecision[] = [];
    agent.on('permission-decision', (event) => events.push(event));
    expect((await agent.run('Write it.').result).status).toBe('completed');
    const entries = await entriesOf(store, agent.sessionId);
    const [decision] = ofKind(entries, 'permission-decision');
    const [allowed] = ofKind(entries, 'call-allowed');
    expect(decision!.decision).toMatchObject({ toolName: 'Write', behavior: 'allow' });
    expect('input' in decision!.decision).toBe(false);
    expect(allowed!.input).toEqual({ file_path: 'a.md', content: ARTICLE });
    expect(events[0]!.input).toEqual({ file_path: 'a.md', content: ARTICLE });
    const stored = entries.map((entry) => JSON.stringify(entry)).join('\n');
    expect(stored.split(ARTICLE).length - 1).toBe(2); // the model's call and the allowed call
  });

  it('a call the host approved (resolveApproval, with an edited input): the decision leaves the input out; the answer and call-allowed keep it', async () => {
    const store = memorySessionStore();
    const model = scriptedModel([turn(toolCall('Write', { file_path: 'a.md', content: 'Draft.' })), 'Written.']);
    const agent = createAgent({ model, store, tools: [write()], todoWrite: false, exitPlanMode: false });
    const waiting = await agent.run('Write it.').result;
    expect(waiting.status).toBe('awaiting-approval');
    const [approval] = agent.pendingApprovals;
    const edited = { file_path: 'a.md', content: ARTICLE };
    expect((await agent.resolveApproval(approval!.id, { behavior: 'allow', updatedInput: edited }).result).status).toBe('completed');
    const entries = await entriesOf(store, agent.sessionId);
    const allowedDecision = ofKind(entries, 'permission-decision').find((entry) => entry.decision.behavior === 'allow');
    expect(allowedDecision).toBeDefined();
    expect('input' in allowedDecision!.decision).toBe(false);
    expect(ofKind(entries, 'call-allowed')[0]!.input).toEqual(edited);
    // The host's answer (its updatedInput, and the input it resolved to) is the approval's record; the decision is not.
    expect(entries.filter((entry) => JSON.stringify(entry).includes(ARTICLE)).map((entry) => entry.kind)).toEqual(['approval-resolved', 'call-allowed']);
  });

  it('a denial keeps its message; a session is resumed and run on from such a transcript', async () => {
    const store = memorySessionStore();
    const model = scriptedModel([turn(toolCall('Write', { file_path: 'a.md', content: 'x' })), 'Denied, fine.', 'Again.']);
    const agent = createAgent({ model, store, tools: [write()], permissionMode: 'dontAsk', todoWrite: false, exitPlanMode: false });
    expect((await agent.run('Write it.').result).status).toBe('completed');
    const [denied] = ofKind(await entriesOf(store, agent.sessionId), 'permission-decision');
    expect(denied!.decision).toMatchObject({ behavior: 'deny', message: expect.any(String) });
    await agent.close();
    const resumed = createAgent({ model, store, resume: agent.sessionId, tools: [write()], todoWrite: false, exitPlanMode: false });
    await resumed.ready;
    expect((await resumed.run('Go on.').result).status).toBe('completed');
  });

  it('without a store too, the permission-decision event carries the input', async () => {
    const model = scriptedModel([turn(toolCall('Write', { file_path: 'a.md', content: 'x' })), 'Done.']);
    const agent = createAgent({ model, tools: [write()], canUseTool: () => ({ behavior: 'allow' }), todoWrite: false, exitPlanMode: false });
    const events: PermissionDecision[] = [];
    agent.on('permission-decision', (event) => events.push(event));
    expect((await agent.run('Write it.').result).status).toBe('completed');
    expect(events[0]!.input).toEqual({ file_path: 'a.md', content: 'x' });
  });
});
