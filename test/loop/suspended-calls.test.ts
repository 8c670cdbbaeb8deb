import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalClaimedError,
  createAgent,
  defineTool,
  SnapshotInvalidError,
  suspendCall,
  type AgentSnapshot,
  type SessionState,
} from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';

const stateOf = ({ $schemaVersion: _v, revision: _r, $signature: _s, ...state }: AgentSnapshot): SessionState => JSON.parse(JSON.stringify(state));

function fixture() {
  const writes: string[] = [];
  const write = defineTool({
    name: 'write',
    description: 'Writes.',
    inputSchema: z.object({ text: z.string() }),
    kind: 'edit',
    execute: ({ input }) => {
      writes.push(input.text);
      return `wrote ${input.text}`;
    },
  });
  // The child's model: asks to write, then reports.
  const childScript = () => [turn(toolCall('write', { text: 'from the child' }, 'toolu_child_write')), 'The child is done.'];
  let childModel = scriptedModel(childScript());
  // A tool that runs a nested agent and suspends while that agent waits for the host.
  const delegate = defineTool({
    name: 'delegate',
    description: 'Hands a task to a helper agent.',
    inputSchema: z.object({ task: z.string() }),
    readOnly: true,
    execute: async ({ input }) => {
      childModel = scriptedModel(childScript());
      const child = createAgent({ model: childModel, tools: [write], agentId: 'helper-1' });
      const result = await child.run(input.task).result;
      return result.status === 'awaiting-approval' ? suspendCall({ agentId: 'helper-1', state: stateOf(child.snapshot()), data: { type: 'helper' } }) : result.text;
    },
    resume: async ({ nested, approval }) => {
      const child = createAgent({ model: childModel, tools: [write], resume: { $schemaVersion: 2, revision: 0, ...nested.state } });
      const result = await child.resolveApproval(approval.id, approval.decision).result;
      return result.status === 'awaiting-approval' ? suspendCall({ ...nested, state: stateOf(child.snapshot()) }) : `helper: ${result.text}`;
    },
  });
  return { writes, tools: [delegate, write] };
}

describe('calls that suspend on a nested run', () => {
  it('list the nested approval with its path, survive a snapshot into another agent, and run the nested call exactly once', async () => {
    const { writes, tools } = fixture();
    const parent = createAgent({ model: scriptedModel([turn(toolCall('delegate', { task: 'write it' }, 'toolu_parent')), 'All done.']), tools });
    const first = await parent.run('delegate the writing').result;
    expect(first.status).toBe('awaiting-approval');
    expect(first.pendingApprovals).toEqual([expect.objectContaining({ toolName: 'write', agentId: 'helper-1', path: ['toolu_parent', 'toolu_child_write'] })]);
    expect(writes).toEqual([]);

    // Another process, days later: the snapshot carries the nested state.
    const snapshot = JSON.parse(JSON.stringify(parent.snapshot()));
    expect(snapshot.openBatch.calls[0]).toMatchObject({ state: 'suspended', nested: { agentId: 'helper-1', data: { type: 'helper' } } });
    const resumed = createAgent({ model: scriptedModel(['All done.']), tools, resume: snapshot });
    const [approval] = resumed.pendingApprovals;
    const done = await resumed.resolveApproval(approval!.id, { behavior: 'allow' }).result;
    expect(done.status).toBe('completed');
    expect(writes).toEqual(['from the child']);
    const results = resumed.messages.at(-2)!.content as Array<{ type: string; content?: unknown }>;
    expect(results[0]).toMatchObject({ type: 'tool_result', content: 'helper: The child is done.' });
    expect(validateMessagesRequest(resumed.messages)).toBeUndefined();
    expect(() => resumed.resolveApproval(approval!.id, { behavior: 'allow' })).toThrow(/approval/i);
  });

  it('a nested state is validated like any state: a tampered one is refused with its path', () => {
    const { tools } = fixture();
    const snapshot = {
      $schemaVersion: 2,
      revision: 0,
      sessionId: 's',
      messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_parent', name: 'delegate', input: { task: 't' } }] }],
      messageUsage: [null, null],
      permissionMode: 'default',
      pendingReminders: [],
      todos: [],
      sessionRules: { allow: [], deny: [], ask: [] },
      toolState: {},
      openBatch: { calls: [{ toolUseId: 'toolu_parent', toolName: 'delegate', state: 'suspended', input: { task: 't' }, nested: { agentId: 'helper-1', state: { sessionId: 'x', messages: 'not a list' } } }] },
    };
    expect(() => createAgent({ model: scriptedModel([]), tools, resume: snapshot as never })).toThrow(SnapshotInvalidError);
    expect(() => createAgent({ model: scriptedModel([]), tools, resume: snapshot as never })).toThrow(/openBatch\.calls\[0\]\.nested\.state\.messages/);
  });

  it('with claimApproval, a snapshot answered twice runs its call once', async () => {
    const { writes, tools } = fixture();
    const claimed = new Set<string>();
    const claimApproval = ({ approvalId }: { approvalId: string }) => (claimed.has(approvalId) ? false : (claimed.add(approvalId), true));
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'once' }, 'toolu_w'))]), tools, claimApproval });
    await agent.run('write').result;
    const saved = JSON.parse(JSON.stringify(agent.snapshot()));
    const one = createAgent({ model: scriptedModel(['ok']), tools, claimApproval, resume: saved });
    const two = createAgent({ model: scriptedModel(['ok']), tools, claimApproval, resume: saved });
    const id = one.pendingApprovals[0]!.id;
    const [a, b] = await Promise.all([one.resolveApproval(id, { behavior: 'allow' }).result, two.resolveApproval(id, { behavior: 'allow' }).result]);
    expect([a.status, b.status].sort()).toEqual(['completed', 'error']);
    expect(ApprovalClaimedError.isInstance((a.status === 'error' ? a : b).error)).toBe(true);
    expect(writes).toEqual(['once']);
  });

  it('tells the model when the host changed its input before the call ran', async () => {
    const { writes, tools } = fixture();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'draft' }, 'toolu_w')), 'ok']), tools });
    await agent.run('write').result;
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { text: 'edited by the user' } }).result;
    expect(writes).toEqual(['edited by the user']);
    const answer = (agent.messages[2]!.content as Array<{ type: string; content: string }>)[0]!;
    expect(answer.content).toMatch(/^Note: your input was changed before this call ran.*text: "draft" → "edited by the user"/s);
    expect(answer.content).toMatch(/wrote edited by the user$/);
  });

  it('signed snapshots: resume when intact, refuse when altered or unsigned', async () => {
    const { tools } = fixture();
    const snapshotKey = 'a-secret-of-at-least-32-bytes-long!!';
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_w'))]), tools, snapshotKey });
    await agent.run('write').result;
    const signed = JSON.parse(JSON.stringify(agent.snapshot()));
    expect(signed.$signature).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(createAgent({ model: scriptedModel([]), tools, snapshotKey, resume: signed }).pendingApprovals).toHaveLength(1);
    const altered = structuredClone(signed);
    altered.openBatch.calls[0].approval.input.text = 'something else';
    expect(() => createAgent({ model: scriptedModel([]), tools, snapshotKey, resume: altered })).toThrow(/signature does not match/);
    const { $signature: _dropped, ...unsigned } = signed;
    expect(() => createAgent({ model: scriptedModel([]), tools, snapshotKey, resume: unsigned })).toThrow(/not signed/);
    expect(() => createAgent({ model: scriptedModel([]), tools, snapshotKey: 'short', resume: signed })).toThrow(/at least 32 bytes/);
  });
});
