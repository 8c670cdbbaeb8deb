// A process dies at every append of a run — an automatic compaction, a subagent's tool call —
// and another resumes the session from what was stored and carries on (`continue()`). Each
// append is where a kill -9 can cut: the store takes the appends before the cut and none after.
// (The plan approval's cuts: test/plan-workflow/approval-crash-points.test.ts.)
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, ModelError, type AgentOptions, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { dyingStore } from './dying-store.js';

function tools(ran: string[]) {
  const probe = defineTool({ name: 'probe', description: 'Probes.', inputSchema: z.object({}), readOnly: true, execute: () => 'x'.repeat(40_000) });
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', execute: ({ toolUseId }) => (ran.push(toolUseId), 'wrote') });
  return [probe, write];
}

type Flow = (ran: string[]) => { first: Omit<AgentOptions, 'store'>; resumed: Omit<AgentOptions, 'store' | 'resume'> };

const flows: Record<string, Flow> = {
  'an automatic compaction between two tool turns': (ran) => {
    const context = { window: 10_000, compaction: { outputReserve: 500, keepTokens: 0 } };
    return {
      first: {
        model: scriptedModel([turn(toolCall('probe', {}, 'toolu_probe'), { usage: { inputTokens: 1_000, outputTokens: 0 } }), '<summary>Probed.</summary>', turn(toolCall('write', {}, 'toolu_write')), 'Done.']),
        tools: tools(ran),
        context,
      },
      resumed: { model: scriptedModel(['Done.', 'Done.']), tools: tools(ran), context },
    };
  },
  'a clearing of stale tool results, spilled outputs among them': (ran) => {
    const context = { spill: { maxChars: 20_000 }, clearing: { triggerFraction: 0.01, keepRecentTurns: 0, minimumResultChars: 10, clearAtLeastChars: 1 }, compaction: false as const };
    return {
      first: {
        model: scriptedModel([
          turn(toolCall('probe', {}, 'toolu_probe')),
          turn(toolCall('ReadToolOutput', { handle: 'out_toolu_probe', offset: 19_000 }, 'toolu_read'), toolCall('write', {}, 'toolu_write')),
          'Done.',
        ]),
        tools: tools(ran),
        context,
      },
      resumed: { model: scriptedModel(['Done.', 'Done.']), tools: tools(ran), context },
    };
  },
  'a reactive compaction after "prompt is too long"': (ran) => {
    const refuse = () => {
      throw new ModelError('prompt is too long: 250000 tokens > 200000 maximum', { status: 400, errorType: 'invalid_request_error' });
    };
    return {
      first: {
        model: scriptedModel([turn(toolCall('probe', {}, 'toolu_probe')), refuse, '<summary>Probed.</summary>', turn(toolCall('write', {}, 'toolu_write')), 'Done.']),
        tools: tools(ran),
      },
      resumed: { model: scriptedModel(['<summary>Probed.</summary>', 'Done.', 'Done.']), tools: tools(ran) },
    };
  },
  "a subagent's tool call": (ran) => ({
    first: {
      model: scriptedModel([turn(toolCall('Agent', { description: 'Write it', prompt: 'Write.', subagent_type: 'worker' }, 'toolu_agent')), 'Done.']),
      tools: tools(ran),
      agents: { worker: { description: 'Writes.', prompt: 'You write.', model: scriptedModel([turn(toolCall('write', {}, 'toolu_sub_write')), 'Written.']) } },
    },
    resumed: { model: scriptedModel(['Done.', 'Done.']), tools: tools(ran), agents: { worker: { description: 'Writes.', prompt: 'You write.', model: scriptedModel(['Again.', 'Again.']) } } },
  }),
};

// By append (all-or-nothing, as a transaction stores it) and by entry (a torn write, or a store that
// writes an append's entries one by one: the journal hands several to one append).
describe.each(['append', 'entry'] as const)('a process killed at any %s, the session resumed in another', (unit) => {
  it.each(Object.entries(flows))('%s: it loads, carries on with valid requests, and no call runs twice', async (_name, flow) => {
    let cut = 2;
    for (; cut < 200; cut++) {
      const inner = memorySessionStore();
      const dying = dyingStore(inner, cut, { unit });
      const ran: string[] = [];
      const { first: firstOptions, resumed: resumedOptions } = flow(ran);
      const first = createAgent({ ...firstOptions, store: dying.store, canUseTool: () => ({ behavior: 'allow' }) } as AgentOptions);
      const firstResult = await first.run('go').result;
      await first.close().catch(() => undefined);
      if ((unit === 'entry' ? dying.entries() : dying.appends()) < cut) {
        expect(firstResult.status).toBe('completed');
        break;
      }
      const where = `killed at ${unit} ${cut}`;
      const resumed = createAgent({ ...resumedOptions, store: inner, resume: first.sessionId, canUseTool: () => ({ behavior: 'allow' }) } as AgentOptions);
      await resumed.ready;
      const result = await resumed.continue().result;
      expect(result.status, where).toBe('completed');
      const model = resumedOptions.model as ReturnType<typeof scriptedModel>;
      for (const request of model.requests) expect(validateMessagesRequest(request.messages), where).toBeUndefined();
      // A history that holds the prompt is one the API takes.
      if (resumed.messages.length > 0) expect(validateMessagesRequest(resumed.messages), where).toBeUndefined();
      expect(ran.length, `${where}: ${ran.join(', ')}`).toBe(new Set(ran).size);
      await resumed.close();
    }
    // Every flow is cut at many points: its entries, or its appends (fewer: each step of the
    // loop is one, and a final answer joins the run's end).
    expect(cut).toBeGreaterThan(unit === 'entry' ? 10 : 6);
  });
});

describe('an approval answered with permission updates, the process killed at any append', () => {
  it('resumes with the approval still pending, or answered with its updates applied: never the call without them', async () => {
    let cut = 1;
    for (; cut < 100; cut++) {
      const inner = memorySessionStore();
      const ran: string[] = [];
      // Parked on two approvals, stored whole.
      const parked = createAgent({ model: scriptedModel([turn(toolCall('write', {}, 'toolu_w1'), toolCall('write', {}, 'toolu_w2'))]), tools: tools(ran), store: inner });
      await parked.run('go').result;
      await parked.close();
      const dying = dyingStore(inner, cut);
      const answering = createAgent({ model: scriptedModel(['Done.']), tools: tools(ran), store: dying.store, resume: parked.sessionId });
      await answering.ready;
      const first = answering.pendingApprovals.find((approval) => approval.toolUseId === 'toolu_w1')!;
      await answering.resolveApproval(first.id, {
        behavior: 'allow',
        updatedPermissions: [
          { type: 'addRules', behavior: 'allow', rules: ['write'], destination: 'session' },
          { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
        ],
      }).result;
      await answering.close().catch(() => undefined);
      if (dying.appends() < cut) break;
      const where = `killed at append ${cut}`;
      const resumed = createAgent({ model: scriptedModel(['Done.']), tools: tools(ran), store: inner, resume: parked.sessionId });
      await resumed.ready;
      const stillPending = resumed.pendingApprovals.some((approval) => approval.toolUseId === 'toolu_w1');
      if (!stillPending) {
        expect(resumed.permissionMode, where).toBe('acceptEdits');
        expect(resumed.snapshot().sessionRules.allow, where).toContain('write');
      } else {
        expect(resumed.permissionMode, where).toBe('default');
      }
      expect(ran.length, where).toBeLessThanOrEqual(1);
      await resumed.close();
    }
    // Two appends, each cut: the run's start with the answer and its updates (one append, as the
    // journal takes what was recorded before it writes), then the tool's result with the run's end
    // (recorded before the run waits for the store: the run ends awaiting the other approval).
    expect(cut).toBeGreaterThan(2);
  });
});

describe("canUseTool's allow with permission updates, the process killed at any append", () => {
  it('never stores the allowed call without the updates that came with it', async () => {
    let cut = 2;
    for (; cut < 100; cut++) {
      const inner = memorySessionStore();
      const dying = dyingStore(inner, cut);
      const agent = createAgent({
        model: scriptedModel([turn(toolCall('write', {}, 'toolu_w1')), 'Done.']),
        tools: tools([]),
        store: dying.store,
        canUseTool: () => ({ behavior: 'allow', updatedPermissions: [{ type: 'addRules', behavior: 'allow', rules: ['write'], destination: 'session' }] }),
      });
      await agent.run('go').result;
      await agent.close().catch(() => undefined);
      if (dying.appends() < cut) break;
      const entries = await loadEntries(inner, agent.sessionId);
      const allowed = entries.some((entry) => entry.kind === 'call-allowed');
      const ruled = entries.some((entry) => entry.kind === 'rules-added');
      expect(allowed ? ruled : true, `killed at append ${cut}`).toBe(true);
    }
    expect(cut).toBeGreaterThan(4);
  });
});

describe('a fork, the process killed while it is written', () => {
  it('leaves no session behind that holds only part of its start (the fork mark without the copied history)', async () => {
    const inner = memorySessionStore();
    const parent = createAgent({ model: scriptedModel(['Hello.']), store: inner });
    await parent.run('hi').result;
    // Every append of another session than the parent's (the fork's) after the first is refused.
    let forkAppends = 0;
    const store: SessionStore = {
      append: async (sessionId, entries, options) => {
        if (sessionId !== parent.sessionId && ++forkAppends > 1) throw new Error('the process died');
        return inner.append(sessionId, entries, options);
      },
      load: (sessionId, options) => inner.load(sessionId, options),
      list: () => inner.list(),
      delete: (sessionId) => inner.delete(sessionId),
    };
    const writer = createAgent({ model: scriptedModel([]), store, resume: parent.sessionId });
    await writer.ready;
    await parent.close();
    await writer.fork().catch(() => undefined);
    for (const sessionId of await inner.list()) {
      if (sessionId === parent.sessionId) continue;
      const entries = await loadEntries(inner, sessionId);
      expect(entries.map((entry) => entry.kind)).toContain('checkpoint');
      const resumed = createAgent({ model: scriptedModel([]), store: inner, resume: sessionId });
      await resumed.ready;
      expect(resumed.messages.length).toBeGreaterThan(0);
    }
  });
});

describe('rules added together, the process killed while they are written', () => {
  it('stores all of them or none: an allow rule never without the deny rule given with it', async () => {
    for (let cut = 1; cut <= 3; cut++) {
      const inner = memorySessionStore();
      const setup = createAgent({ model: scriptedModel([]), tools: tools([]), store: inner });
      await setup.flush();
      await setup.close();
      const { store } = dyingStore(inner, cut);
      const agent = createAgent({ model: scriptedModel([]), tools: tools([]), store, resume: setup.sessionId });
      await agent.ready;
      agent.addRules({ allow: ['write'], deny: ['probe'] });
      await agent.flush().catch(() => undefined);
      const added = (await loadEntries(inner, setup.sessionId)).filter((entry) => entry.kind === 'rules-added').map((entry) => (entry as { behavior: string }).behavior);
      expect([[], ['allow', 'deny']], `killed at append ${cut}`).toContainEqual(added);
    }
  });
});

describe("a subagent's approval answered days later, the process killed at any append", () => {
  it('resumes with the approval pending (nothing ran) or answered, carries on with valid requests, and the call runs at most once', async () => {
    const worker = (script: Parameters<typeof scriptedModel>[0]) => ({ worker: { description: 'Writes.', prompt: 'You write.', model: scriptedModel(script) } });
    let cut = 1;
    for (; cut < 100; cut++) {
      const inner = memorySessionStore();
      const ran: string[] = [];
      const parked = createAgent({
        model: scriptedModel([turn(toolCall('Agent', { description: 'Write it', prompt: 'Write.', subagent_type: 'worker' }, 'toolu_agent'))]),
        tools: tools(ran),
        store: inner,
        agents: worker([turn(toolCall('write', {}, 'toolu_sub_write'))]),
      });
      expect((await parked.run('go').result).status).toBe('awaiting-approval');
      await parked.close();
      const dying = dyingStore(inner, cut);
      const answering = createAgent({ model: scriptedModel(['Done.']), tools: tools(ran), store: dying.store, resume: parked.sessionId, agents: worker(['Written.']) });
      await answering.ready;
      await answering.resolveApproval(answering.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
      await answering.close().catch(() => undefined);
      if (dying.appends() < cut) break;
      const where = `killed at append ${cut}`;
      const model = scriptedModel(['Done.', 'Done.']);
      const resumed = createAgent({ model, tools: tools(ran), store: inner, resume: parked.sessionId, agents: worker(['Written.', 'Written.']), canUseTool: () => ({ behavior: 'allow' }) });
      await resumed.ready;
      if (resumed.pendingApprovals.length > 0) {
        expect(ran, where).toEqual([]);
      } else {
        expect((await resumed.continue().result).status, where).toBe('completed');
        for (const request of model.requests) expect(validateMessagesRequest(request.messages), where).toBeUndefined();
        expect(validateMessagesRequest(resumed.messages), where).toBeUndefined();
      }
      expect(ran.length, where).toBeLessThanOrEqual(1);
      await resumed.close();
    }
    expect(cut).toBeGreaterThan(5);
  });
});

describe("a background task's end, the process killed at any append", () => {
  it('never records the end without the notification the model is given', async () => {
    let cut = 2;
    for (; cut < 100; cut++) {
      const inner = memorySessionStore();
      const dying = dyingStore(inner, cut);
      const agent = createAgent({
        model: scriptedModel([turn(toolCall('Agent', { description: 'Write it', prompt: 'Write.', subagent_type: 'worker', run_in_background: true }, 'toolu_agent')), 'Started it.']),
        tools: tools([]),
        store: dying.store,
        canUseTool: () => ({ behavior: 'allow' }),
        agents: { worker: { description: 'Writes.', prompt: 'You write.', model: scriptedModel([turn(toolCall('write', {}, 'toolu_sub_write')), 'Written.']) } },
      });
      const ended = new Promise<void>((resolve) => agent.once('background-task-end', () => resolve()));
      await agent.run('go').result;
      // The task ends by itself, or is stopped by close(): either way its end is recorded.
      await Promise.race([ended, agent.close()]);
      await agent.close().catch(() => undefined);
      if (dying.appends() < cut) break;
      const entries = await loadEntries(inner, agent.sessionId).catch(() => []);
      const endedTask = entries.some((entry) => entry.kind === 'tool-state' && /"status":"(completed|interrupted|failed)"/.test(JSON.stringify(entry)));
      const notified = entries.some((entry) => entry.kind === 'reminder' && JSON.stringify(entry).includes('Background task'));
      expect(endedTask ? notified : true, `killed at append ${cut}`).toBe(true);
    }
    expect(cut).toBeGreaterThan(5);
  });
});

describe('a host tool named ExitPlanMode, the process killed at any append', () => {
  it('is never run again on resume (only the built-in ExitPlanMode is)', async () => {
    let cut = 2;
    for (; cut < 100; cut++) {
      const inner = memorySessionStore();
      const dying = dyingStore(inner, cut);
      const ran: string[] = [];
      const own = () => defineTool({ name: 'ExitPlanMode', description: 'The host’s own.', inputSchema: z.object({}), kind: 'edit', execute: ({ toolUseId }) => (ran.push(toolUseId), 'sent') });
      const agent = createAgent({ model: scriptedModel([turn(toolCall('ExitPlanMode', {}, 'toolu_own')), 'Done.']), tools: [own()], exitPlanMode: false, store: dying.store, canUseTool: () => ({ behavior: 'allow' }) });
      await agent.run('go').result;
      await agent.close().catch(() => undefined);
      if (dying.appends() < cut) break;
      const resumed = createAgent({ model: scriptedModel(['Done.', 'Done.']), tools: [own()], exitPlanMode: false, store: inner, resume: agent.sessionId, canUseTool: () => ({ behavior: 'allow' }) });
      await resumed.ready;
      await resumed.continue().result;
      expect(ran.length, `killed at append ${cut}`).toBeLessThanOrEqual(1);
      await resumed.close();
    }
    expect(cut).toBeGreaterThan(4);
  });
});
