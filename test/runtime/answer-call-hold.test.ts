// The answer that completes a batch is held for the message carrying the results only where that
// message follows without a wait (the loop's turn): an answer given before a wait (a call a resume
// left allowed runs before a new prompt's hooks) is stored at once, as every other answer is.
import { describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { storedResultIds, tick } from '../helpers.js';

describe('the answer that completes a batch, held for its message', () => {
  it('a call a resume left allowed runs before the new prompt: its result is stored before the prompt hooks run, not held for the prompt', async () => {
    const inner = memorySessionStore();
    // The process stops once the approved ExitPlanMode call is stored, before its result is.
    let dead = false;
    const dying = Object.create(inner) as SessionStore;
    dying.append = async (sessionId, entries, options) => {
      if (dead) throw new Error('the process died');
      await inner.append(sessionId, entries, options);
      if (entries.some((entry) => entry.kind === 'call-allowed')) dead = true;
    };
    const first = createAgent({ model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'Write the article.' }, 'toolu_exit'))]), store: dying, permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }) });
    await first.run('Plan it.').result;
    await first.close().catch(() => undefined);
    expect(storedResultIds(await loadEntries(inner, first.sessionId)).has('toolu_exit')).toBe(false);

    const seen: Array<boolean | string> = [];
    const resumed = createAgent({
      model: scriptedModel(['Writing it now.']),
      store: inner,
      resume: first.sessionId,
      canUseTool: () => ({ behavior: 'allow' }),
      hooks: {
        UserPromptSubmit: [
          {
            hook: async () => {
              // A hook that takes its time (a few turns of the event loop here; a network call in a host).
              for (let index = 0; index < 5; index++) await tick();
              seen.push(storedResultIds(await loadEntries(inner, first.sessionId)).has('toolu_exit'));
            },
          },
        ],
      },
    });
    await resumed.ready;
    expect(resumed.pendingApprovals).toEqual([]);
    resumed.on('tool-result', (event) => seen.push(event.toolUseId));
    const result = await resumed.run('Go on.').result;
    expect(result.status, result.error?.message).toBe('completed');
    // The left call ran once, its result was stored and announced before the hook looked.
    expect(seen).toEqual(['toolu_exit', true]);
    await resumed.close();
  });
});
