import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  defineTool,
  foldEntries,
  memorySessionStore,
  type Agent,
  type AgentSnapshot,
  type ContentBlock,
  type Model,
  type ModelStreamEvent,
  type PermissionMode,
  type SessionState,
} from 'agent-harness';
import { validateMessagesRequest } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { settled } from '../../src/state/index.js';

// DESIGN §13: live state = state folded from the store = state from the snapshot, for any
// sequence of runs, approvals, mode switches, forks and crashes — compared at rest.

type TurnSpec = { kind: 'text' } | { kind: 'calls' | 'refused'; calls: Array<'read' | 'write' | 'todo' | 'unknown'> };
type Op =
  | { kind: 'run'; turns: TurnSpec[] }
  | { kind: 'approve'; pick: number; behavior: 'allow' | 'deny' | 'edit' }
  | { kind: 'mode'; mode: PermissionMode }
  | { kind: 'fork' }
  | { kind: 'crash'; from: 'store' | 'snapshot' }
  | { kind: 'continue' };

const turnSpec: fc.Arbitrary<TurnSpec> = fc.oneof(
  fc.constant({ kind: 'text' } as const),
  fc.record({ kind: fc.constant('calls' as const), calls: fc.array(fc.constantFrom('read', 'write', 'todo', 'unknown'), { minLength: 1, maxLength: 3 }) }),
  // An answer the model stops as a refusal, with or without calls (none of which runs).
  fc.record({ kind: fc.constant('refused' as const), calls: fc.array(fc.constantFrom('read', 'write', 'todo', 'unknown'), { maxLength: 2 }) }),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('run' as const), turns: fc.array(turnSpec, { maxLength: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('approve' as const), pick: fc.nat(5), behavior: fc.constantFrom('allow', 'deny', 'edit') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mode' as const), mode: fc.constantFrom<PermissionMode>('default', 'acceptEdits', 'plan', 'dontAsk') }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fork' } as const) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const), from: fc.constantFrom('store', 'snapshot') }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'continue' } as const) },
);

/** A model that plays the queued turns, then answers with text. */
function queuedModel(queue: TurnSpec[]): Model {
  let id = 0;
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'property-model',
    async *stream(): AsyncGenerator<ModelStreamEvent> {
      const spec = queue.shift() ?? { kind: 'text' };
      const content: ContentBlock[] =
        spec.kind === 'text' || (spec.kind === 'refused' && spec.calls.length === 0)
          ? [{ type: 'text', text: `answer ${++id}` }]
          : spec.calls.map((call): ContentBlock => {
              const toolUseId = `toolu_p${++id}`;
              if (call === 'read') return { type: 'tool_use', id: toolUseId, name: 'read', input: { n: id } };
              if (call === 'write') return { type: 'tool_use', id: toolUseId, name: 'write', input: { n: id } };
              if (call === 'todo') return { type: 'tool_use', id: toolUseId, name: 'TodoWrite', input: { todos: [{ content: `step ${id}`, status: 'pending', activeForm: `Doing ${id}` }] } };
              return { type: 'tool_use', id: toolUseId, name: 'missing_tool', input: {} };
            });
      yield { type: 'response', response: { message: { role: 'assistant', content }, stopReason: spec.kind === 'refused' ? 'refusal' : spec.kind === 'text' ? 'end_turn' : 'tool_use', usage: { inputTokens: 3, outputTokens: 2, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } } };
    },
  };
}

const tools = [
  defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({ n: z.number() }), readOnly: true, execute: ({ input }) => `read ${input.n}` }),
  defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ n: z.number() }), kind: 'edit', execute: ({ input }) => `wrote ${input.n}` }),
];

/** The state a snapshot carries, without its envelope. */
function stateOf(snapshot: AgentSnapshot): SessionState {
  const { $schemaVersion: _version, revision: _revision, $signature: _signature, ...state } = snapshot;
  return JSON.parse(JSON.stringify(state));
}

/**
 * What loading does to a state at rest: settle the open batch (see settleLoadedState). From the
 * session's own transcript, calls allowed behind a waiting one keep their answer (every tool here
 * is still there, no deny rule); from an unsigned snapshot they are decided again.
 */
const loaded = (state: SessionState, from: 'store' | 'snapshot'): SessionState => settled(state, from === 'store' ? { keepAllowed: () => true } : {});

async function folded(store: ReturnType<typeof memorySessionStore>, agent: Agent): Promise<SessionState> {
  return JSON.parse(JSON.stringify(foldEntries(await loadEntries(store, agent.sessionId), { sessionId: agent.sessionId })));
}

describe('live state = folded state = snapshot state', () => {
  it('holds at rest after any sequence of runs, approvals, mode switches, forks and crashes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const store = memorySessionStore();
        const queue: TurnSpec[] = [];
        const options = { model: queuedModel(queue), tools, store, maxTurns: 4 };
        let agent = createAgent(options);
        await agent.ready;
        for (const step of ops) {
          if (step.kind === 'run') {
            queue.push(...step.turns);
            await agent.run('go').result;
          } else if (step.kind === 'approve') {
            const pending = agent.pendingApprovals;
            if (pending.length === 0) continue;
            const approval = pending[step.pick % pending.length]!;
            const decision =
              step.behavior === 'deny'
                ? { behavior: 'deny' as const, message: 'no' }
                : step.behavior === 'edit'
                  ? { behavior: 'allow' as const, updatedInput: { n: 999 } }
                  : { behavior: 'allow' as const };
            await agent.resolveApproval(approval.id, decision).result;
          } else if (step.kind === 'continue') {
            await agent.continue().result;
          } else if (step.kind === 'mode') {
            agent.setPermissionMode(step.mode);
            await agent.flush();
          } else if (step.kind === 'fork') {
            const fork = await agent.fork();
            expect(stateOf(fork.snapshot())).toEqual(await folded(store, fork));
            await fork.close();
          } else {
            const snapshot = JSON.parse(JSON.stringify(agent.snapshot())) as AgentSnapshot;
            await agent.close();
            agent = createAgent({ ...options, resume: step.from === 'store' ? agent.sessionId : snapshot });
            await agent.ready;
          }
          // At rest: the live state, the fold of the store, and a snapshot round trip agree.
          const live = stateOf(agent.snapshot());
          expect(live, 'live state vs the fold of the store').toEqual(await folded(store, agent));
          // Loading (from a snapshot or from a copy of the store) settles the open batch: calls that
          // may have run are answered; allowed calls behind a waiting one are decided again (from a
          // snapshot) or keep their answer (from the store).
          const viaSnapshot = createAgent({ model: queuedModel([]), tools, resume: JSON.parse(JSON.stringify(agent.snapshot())) });
          expect(stateOf(viaSnapshot.snapshot()), 'state resumed from a snapshot vs live state, loaded').toEqual(loaded(live, 'snapshot'));
          const copy = memorySessionStore();
          await copy.append(agent.sessionId, await loadEntries(store, agent.sessionId), { expectedRevision: 0 });
          const viaStore = createAgent({ model: queuedModel([]), tools, store: copy, resume: agent.sessionId });
          await viaStore.ready;
          expect(stateOf(viaStore.snapshot()), 'state resumed from the store vs live state, loaded').toEqual(loaded(live, 'store'));
          // And the history is always one the API accepts once the open batch is answered.
          const messages = [...live.messages];
          if (live.openBatch) messages.push({ role: 'user', content: live.openBatch.calls.map((call) => ({ type: 'tool_result', tool_use_id: call.toolUseId, content: 'x' })) });
          // (A history ending with the answers of a refused answer's calls takes the next prompt into that message.)
          else if (messages.at(-1)?.role !== 'user') messages.push({ role: 'user', content: 'next' });
          if (messages.length > 1 || live.messages.length > 0) expect(validateMessagesRequest(messages)).toBeUndefined();
        }
        await agent.close();
      }),
      { numRuns: 150, seed: 20261201 },
    );
  }, 60_000);
});
