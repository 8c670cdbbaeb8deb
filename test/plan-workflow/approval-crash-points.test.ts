// A process dies at every point of a plan's life — planning, the approval with a fresh context,
// the execution — and another resumes the session from what was stored and carries on. Each
// append is where a kill -9 can cut: the store takes appends up to the cut and none after.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, SessionNotFoundError, type CanUseTool } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { dyingStore } from '../session/dying-store.js';

const PLAN = '# Plan\n1. Read the notes\n2. Write the draft';

function tools(ran: string[]) {
  const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}` });
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: ({ input, toolUseId }) => (ran.push(toolUseId), `wrote ${input.path}`) });
  return [read, write];
}

const approveFresh: CanUseTool = (_name, _input, context) =>
  context.reason.type === 'plan-approval' ? { behavior: 'allow', clearContext: true, updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] } : { behavior: 'allow' };

describe('a plan approved with a fresh context, the process killed at any append', () => {
  it('resumes consistent: a saved plan is never left in plan mode, the fresh context is never lost, no call runs twice', async () => {
    let cut = 2;
    for (; cut < 100; cut++) {
      const inner = memorySessionStore();
      const dying = dyingStore(inner, cut);
      const ran: string[] = [];
      const first = createAgent({
        model: scriptedModel([turn(toolCall('read', { path: 'notes.md' }, 'toolu_read')), turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')), turn(toolCall('write', { path: 'draft.md' }, 'toolu_write')), 'Done.']),
        tools: tools(ran),
        store: dying.store,
        permissionMode: 'plan',
        canUseTool: approveFresh,
      });
      const firstResult = await first.run('Plan the article, then write it.').result;
      await first.close().catch(() => undefined);
      if (dying.appends() < cut) {
        // The run ended before this cut: every point has been tried.
        expect(firstResult.status).toBe('completed');
        break;
      }
      const where = `killed at append ${cut}`;
      const ended = (await loadEntries(inner, first.sessionId)).some((entry) => entry.kind === 'run-end');
      const model = scriptedModel(['Done.', 'Done.']);
      const resumed = createAgent({ model, tools: tools(ran), store: inner, resume: first.sessionId, canUseTool: approveFresh });
      const loaded = await resumed.ready.then(
        () => true,
        (error: unknown) => {
          // Only a session whose first append never landed is missing.
          expect(SessionNotFoundError.isInstance(error), where).toBe(true);
          return false;
        },
      );
      if (!loaded) continue;
      const planSaved = resumed.plan !== undefined;
      if (planSaved) expect(resumed.permissionMode, where).not.toBe('plan');
      const result = await resumed.continue().result;
      expect(result.status, where).toBe('completed');
      if (planSaved && !ended) {
        // The approval asked for a fresh context: the execution goes on in it, with the plan.
        expect(validateMessagesRequest(resumed.messages), where).toBeUndefined();
        expect(JSON.stringify(resumed.messages), where).toContain('Write the draft');
        expect(JSON.stringify(resumed.messages), where).not.toContain('contents of notes.md');
      }
      for (const request of model.requests) expect(validateMessagesRequest(request.messages), where).toBeUndefined();
      expect(ran.filter((id) => id === 'toolu_write').length, where).toBeLessThanOrEqual(1);
      await resumed.close();
    }
    // The flow has a dozen appends (two per tool turn, a run's start and its end joining the
    // final answer); each was a cut.
    expect(cut).toBeGreaterThan(10);
  });
});
