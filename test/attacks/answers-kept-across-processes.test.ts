// Attack class: a batch's approvals answered one by one, each in another process. The host allows
// the second call while the first still waits; the session is loaded again elsewhere (a restart, a
// second server) and the first is answered there. The second call's answer must not be lost: it
// runs once, without asking the host again — unless something in the loading process now refuses
// it (a deny rule), which then decides it. Every store; signed snapshots too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentOptions, type SessionStore, type ToolResultBlock } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { serverBackends } from './server-backends.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Backend {
  name: string;
  reachable: boolean;
  /** Opens fresh data; `stores()` is one more process's client on it. */
  open: () => { stores: () => SessionStore };
}
const backends: Backend[] = [
  { name: 'memory', reachable: true, open: () => ((store) => ({ stores: () => store }))(memorySessionStore()) },
  {
    name: 'file',
    reachable: true,
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), 'attack-kept-answers-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      return { stores: () => fileSessionStore({ dir }) };
    },
  },
  ...serverBackends.map((backend) => ({
    name: backend.name,
    reachable: backend.reachable,
    open: () => {
      const opened = backend.open();
      cleanups.push(opened.cleanup);
      return opened;
    },
  })),
];

function tools() {
  const runs: string[] = [];
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (runs.push(input.text), `wrote ${input.text}`) });
  return { runs, write };
}
const batch = () => turn(toolCall('write', { text: 'first' }, 'toolu_1'), toolCall('write', { text: 'second' }, 'toolu_2'));
const resultOf = (messages: readonly { role: string; content: unknown }[], id: string) =>
  messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as ToolResultBlock[]) : [])).find((block) => block.type === 'tool_result' && block.tool_use_id === id);

describe('attack: the second call allowed while the first waits, then the session loaded elsewhere', () => {
  for (const backend of backends) {
    describe.skipIf(!backend.reachable)(backend.name, () => {
      it('the first answered in another process: both run once, the host is not asked again', async () => {
        const { runs, write } = tools();
        const data = backend.open();
        const asking = createAgent({ model: scriptedModel([batch()]), tools: [write], store: data.stores() });
        const [first, second] = (await asking.run('go').result).pendingApprovals;
        const kept = await asking.resolveApproval(second!.id, { behavior: 'allow', updatedInput: { text: 'second, edited' } }).result;
        expect(kept.status).toBe('awaiting-approval');
        expect(runs).toEqual([]);
        await asking.close();

        const model = scriptedModel(['Both written.']);
        const later = createAgent({ model, tools: [write], store: data.stores(), resume: asking.sessionId });
        await later.ready;
        expect(later.pendingApprovals.map((pending) => pending.id)).toEqual([first!.id]);
        const done = await later.resolveApproval(first!.id, { behavior: 'allow' }).result;
        expect(done.status).toBe('completed');
        expect(done.pendingApprovals).toEqual([]);
        expect(runs).toEqual(['first', 'second, edited']);
        expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
        await later.close();
      });
    });
  }

  it('a deny rule added since matches the kept call: it is decided again and refused by the rule', async () => {
    const { runs, write } = tools();
    const store = memorySessionStore();
    const asking = createAgent({ model: scriptedModel([batch()]), tools: [write], store });
    const [first, second] = (await asking.run('go').result).pendingApprovals;
    await asking.resolveApproval(second!.id, { behavior: 'allow' }).result;
    await asking.close();
    const later = createAgent({ model: scriptedModel(['ok']), tools: [write], store, resume: asking.sessionId, rules: { deny: ['write'] } } as AgentOptions);
    await later.ready;
    const done = await later.resolveApproval(first!.id, { behavior: 'allow' }).result;
    expect(done.status).toBe('completed');
    expect(runs).toEqual([]);
    expect(resultOf(later.messages, 'toolu_2')).toMatchObject({ is_error: true, content: expect.stringMatching(/denied by the rule "write"/) });
  });

  it('a signed snapshot keeps the answer; an unsigned one has the call decided again (the host is asked again)', async () => {
    for (const snapshotKey of ['a-secret-key-of-32-bytes-or-more!!', undefined]) {
      const { runs, write } = tools();
      const keyed = snapshotKey ? { snapshotKey } : {};
      const asking = createAgent({ model: scriptedModel([batch()]), tools: [write], ...keyed });
      const [first, second] = (await asking.run('go').result).pendingApprovals;
      await asking.resolveApproval(second!.id, { behavior: 'allow' }).result;
      const later = createAgent({ model: scriptedModel(['ok']), tools: [write], ...keyed, resume: JSON.parse(JSON.stringify(asking.snapshot())) });
      const done = await later.resolveApproval(first!.id, { behavior: 'allow' }).result;
      if (snapshotKey) {
        expect(done.status).toBe('completed');
        expect(runs).toEqual(['first', 'second']);
      } else {
        expect(done.status).toBe('awaiting-approval');
        expect(done.pendingApprovals.map((pending) => pending.toolUseId)).toEqual(['toolu_2']);
        expect(runs).toEqual(['first']);
      }
    }
  });

  it("inside a subagent: the second call's answer survives the reload", async () => {
    const { runs, write } = tools();
    const store = memorySessionStore();
    const options = () => ({
      tools: [write],
      store,
      agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel([batch(), 'Child done.']) } },
    });
    const asking = createAgent({ model: scriptedModel([turn(toolCall('Agent', { description: 'write', prompt: 'write', subagent_type: 'writer' }, 'p_agent'))]), ...options() });
    const [first, second] = (await asking.run('go').result).pendingApprovals;
    expect(second!.path).toEqual(['p_agent', 'toolu_2']);
    await asking.resolveApproval(second!.id, { behavior: 'allow' }).result;
    await asking.close();
    const later = createAgent({ model: scriptedModel(['Parent done.']), ...options(), agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel(['Child done.']) } }, resume: asking.sessionId });
    await later.ready;
    const done = await later.resolveApproval(first!.id, { behavior: 'allow' }).result;
    expect(done.status).toBe('completed');
    expect(runs).toEqual(['first', 'second']);
  });
});
