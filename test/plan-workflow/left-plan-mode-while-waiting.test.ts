// The model presents a plan in plan mode; while the approval waits, the host leaves plan mode
// (setPermissionMode), then answers: approves the plan, edits it, or rejects it. What happens is
// the same here and in another agent that resumes the session: the approved (edited) plan is the
// one saved, recorded and carried out, in the mode the host chose, never in plan mode, asked once.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentEvent, type PermissionMode, type SessionStore, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { dyingStore } from '../session/dying-store.js';

const PLAN = '# Plan\n1. Write the draft';
const EDITED = '# Plan\n1. Write the outline\n2. Write the draft';

const resultOf = (messages: readonly { role: string; content: unknown }[], id: string) =>
  messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as ToolResultBlock[]) : [])).find((block) => block.type === 'tool_result' && block.tool_use_id === id)?.content as string;

/** A writing tool that records the permission mode each write ran in. */
function writer() {
  const writes: Array<{ path: string; mode: PermissionMode }> = [];
  let modeNow: () => PermissionMode = () => 'default';
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: ({ input }) => (writes.push({ path: input.path, mode: modeNow() }), `wrote ${input.path}`) });
  return { write, writes, track: (read: () => PermissionMode) => (modeNow = read) };
}

const afterApproval = () => scriptedModel([turn(toolCall('write', { path: 'outline.md' }, 'w1')), 'Done.']);
const allowWrites = (name: string) => (name === 'write' ? { behavior: 'allow' as const } : { behavior: 'defer' as const });

/** An agent parked on its plan's approval, with the host's mode switch made while it waits. */
async function parked(mode: PermissionMode, store?: SessionStore) {
  const { write, writes, track } = writer();
  const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: PLAN }, 'p1')), turn(toolCall('write', { path: 'outline.md' }, 'w1')), 'Done.']);
  const agent = createAgent({ model, tools: [write], permissionMode: 'plan', canUseTool: allowWrites, ...(store ? { store } : {}) });
  track(() => agent.permissionMode);
  const events: AgentEvent[] = [];
  for (const type of ['plan-approved', 'plan-rejected', 'permission-request'] as const) agent.on(type, (event) => events.push(event));
  expect((await agent.run('Plan it.').result).status).toBe('awaiting-approval');
  agent.setPermissionMode(mode);
  return { agent, writes, events, model };
}

function expectCarriedOut(agent: ReturnType<typeof createAgent>, mode: PermissionMode, writes: Array<{ path: string; mode: PermissionMode }>) {
  expect(agent.plan?.text).toBe(EDITED);
  const answer = resultOf(agent.messages, 'p1');
  expect(answer).toMatch(/approved your plan after editing it/);
  expect(answer).toContain(EDITED);
  expect(answer).not.toContain(PLAN);
  expect(answer).toContain(`the permission mode is now "${mode}"`);
  expect(agent.permissionMode).toBe(mode);
  expect(writes).toEqual([{ path: 'outline.md', mode }]);
  expect(agent.pendingApprovals).toEqual([]);
}

describe('an edited plan approved after the host left plan mode while the plan waited', () => {
  it.each(['default', 'acceptEdits'] as const)('host switched to %s: the edited plan is saved, recorded and carried out in that mode, asked once', async (mode) => {
    const { agent, writes, events } = await parked(mode);
    const result = await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { plan: EDITED } }).result;
    expect(result.status).toBe('completed');
    expectCarriedOut(agent, mode, writes);
    expect(events.filter((event) => event.type === 'plan-approved')).toEqual([expect.objectContaining({ plan: EDITED, edited: true })]);
    expect(events.filter((event) => event.type === 'permission-request' && event.toolName === 'ExitPlanMode')).toHaveLength(1);
  });

  it('answered in another agent that resumed the session from its store: the same, and a third agent finds it settled', async () => {
    const store = memorySessionStore();
    const { agent: first } = await parked('default', store);
    await first.close();
    const { write, writes, track } = writer();
    const later = createAgent({ model: afterApproval(), tools: [write], store, resume: first.sessionId, canUseTool: allowWrites });
    track(() => later.permissionMode);
    await later.ready;
    expect(later.permissionMode).toBe('default');
    const result = await later.resolveApproval(later.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { plan: EDITED } }).result;
    expect(result.status).toBe('completed');
    expectCarriedOut(later, 'default', writes);
    await later.close();
    // What the store recorded: the host's edit with the approval, the edited plan saved.
    const entries = await loadEntries(store, first.sessionId);
    expect(entries.filter((entry) => entry.kind === 'approval-resolved')).toEqual([expect.objectContaining({ input: { plan: EDITED } })]);
    const third = createAgent({ model: scriptedModel([]), tools: [write], store, resume: first.sessionId });
    await third.ready;
    expect(third.pendingApprovals).toEqual([]);
    expect(third.plan?.text).toBe(EDITED);
    expect(third.permissionMode).toBe('default');
    await third.close();
  });

  it('answered in another agent resumed from a snapshot: the same', async () => {
    const { agent: first } = await parked('acceptEdits');
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
    const { write, writes, track } = writer();
    const later = createAgent({ model: afterApproval(), tools: [write], resume: snapshot, canUseTool: allowWrites });
    track(() => later.permissionMode);
    await later.ready;
    const result = await later.resolveApproval(later.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { plan: EDITED } }).result;
    expect(result.status).toBe('completed');
    expectCarriedOut(later, 'acceptEdits', writes);
  });

  it('the host keeps planning with its answer (setMode plan): the edited plan is saved, nothing is written', async () => {
    const { agent, writes } = await parked('default');
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { plan: EDITED }, updatedPermissions: [{ type: 'setMode', mode: 'plan', destination: 'session' }] }).result;
    expect(agent.plan?.text).toBe(EDITED);
    expect(agent.permissionMode).toBe('plan');
    expect(resultOf(agent.messages, 'p1')).toMatch(/still "plan"/);
    expect(writes).toEqual([]);
  });

  it('a blank edited plan is still refused, and nothing is saved', async () => {
    const { agent, writes } = await parked('default');
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { plan: ' \u200b ' } }).result;
    expect(agent.plan).toBeUndefined();
    expect(resultOf(agent.messages, 'p1')).toMatch(/The edited input was not run: .*blank/);
    expect(writes.every((write) => write.mode !== 'plan')).toBe(true);
  });

  it('the model calling ExitPlanMode outside plan mode is still refused', async () => {
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: PLAN }, 'p1')), 'ok']);
    const agent = createAgent({ model, canUseTool: () => ({ behavior: 'allow', updatedInput: { plan: EDITED } }) });
    await agent.run('go').result;
    expect(resultOf(agent.messages, 'p1')).toMatch(/not in plan mode/);
    expect(agent.plan).toBeUndefined();
  });

  it('canUseTool edits the plan after the host left plan mode while it waited: the same', async () => {
    const { write, writes, track } = writer();
    let agent!: ReturnType<typeof createAgent>;
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: PLAN }, 'p1')), turn(toolCall('write', { path: 'outline.md' }, 'w1')), 'Done.']);
    agent = createAgent({
      model,
      tools: [write],
      permissionMode: 'plan',
      canUseTool: async (name) => {
        if (name !== 'ExitPlanMode') return { behavior: 'allow' };
        await Promise.resolve();
        agent.setPermissionMode('default');
        return { behavior: 'allow', updatedInput: { plan: EDITED } };
      },
    });
    track(() => agent.permissionMode);
    expect((await agent.run('Plan it.').result).status).toBe('completed');
    expectCarriedOut(agent, 'default', writes);
  });
});

describe('a plan rejected after the host left plan mode while it waited', () => {
  it('the model is told the mode it is in now, not that it is still planning', async () => {
    const { agent, events } = await parked('default');
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'deny', message: 'Not like this.' }).result;
    const answer = resultOf(agent.messages, 'p1');
    expect(answer).toMatch(/did not approve your plan/);
    expect(answer).toContain('Not like this.');
    expect(answer).not.toMatch(/still in plan mode/);
    expect(answer).toContain('"default"');
    expect(agent.plan).toBeUndefined();
    expect(events.filter((event) => event.type === 'plan-rejected')).toHaveLength(1);
  });
});

describe('the edited approval answered in another process that dies at any append', () => {
  it('a third agent resumes consistent: the plan saved is the edited one or none, never in plan mode, nothing run twice or in plan mode', async () => {
    let cut = 1;
    for (; cut < 60; cut++) {
      const inner = memorySessionStore();
      const { agent: first } = await parked('default', inner);
      await first.close();
      const dying = dyingStore(inner, cut);
      const { write, writes, track } = writer();
      const answering = createAgent({ model: afterApproval(), tools: [write], store: dying.store, resume: first.sessionId, canUseTool: allowWrites });
      track(() => answering.permissionMode);
      const loaded = await answering.ready.then(() => true, () => false);
      if (loaded) {
        await answering.resolveApproval(answering.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { plan: EDITED } }).result.catch(() => undefined);
        await answering.close().catch(() => undefined);
      }
      const where = `killed at append ${cut}`;
      if (dying.appends() < cut) break;
      const resumed = createAgent({ model: afterApproval(), tools: [write], store: inner, resume: first.sessionId, canUseTool: allowWrites });
      track(() => resumed.permissionMode);
      await resumed.ready;
      if (resumed.pendingApprovals.length > 0) {
        // The answer was not recorded: it is still the host's to give, once.
        expect(resumed.plan, where).toBeUndefined();
        await resumed.resolveApproval(resumed.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { plan: EDITED } }).result;
      } else {
        await resumed.continue().result;
      }
      expect(resumed.pendingApprovals, where).toEqual([]);
      expect(resumed.plan?.text, where).toBe(EDITED);
      expect(resumed.permissionMode, where).toBe('default');
      expect(writes.length, where).toBeLessThanOrEqual(1);
      expect(writes.filter((entry) => entry.mode === 'plan'), where).toEqual([]);
      await resumed.close();
    }
    expect(cut).toBeGreaterThan(3);
  });
});
