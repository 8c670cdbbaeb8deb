// A custom Model that ignores `request.signal`: interrupt() and close() must not wait for it, and
// nothing it streams afterwards may reach the host or the session.
import { describe, expect, it } from 'vitest';
import { createAgent, type AgentEvent, type Model, type ModelRequest, type ModelStreamEvent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred, tick, watchedStore } from '../helpers.js';

const USAGE = { inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };

/**
 * A model whose calls each stream one delta, then wait for `release()` whatever their signal
 * says, then stream another delta and a full answer. Earlier calls can be scripted to answer at once.
 */
function deafModel(before: Model | undefined = undefined) {
  const started = deferred<ModelRequest>();
  const release = deferred();
  let ended = false;
  let calls = 0;
  const model: Model = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'deaf',
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      calls++;
      if (before && calls === 1) {
        yield* before.stream(request);
        return;
      }
      try {
        yield { type: 'text-delta', index: 0, text: 'Thinking about ' };
        started.resolve(request);
        await release.promise;
        yield { type: 'text-delta', index: 0, text: 'LATE DELTA' };
        yield {
          type: 'response',
          response: { message: { role: 'assistant', content: [{ type: 'text', text: 'Thinking about LATE DELTA' }] }, stopReason: 'end_turn', usage: USAGE },
        };
      } finally {
        ended = true;
      }
    },
  };
  return { model, started: started.promise, release: () => release.resolve(), ended: () => ended };
}

async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await tick();
}

describe('a Model that ignores its signal', () => {
  it('interrupt() ends the run at once; what the model streams later reaches no one and the stream is ended', async () => {
    const deaf = deafModel();
    const agent = createAgent({ model: deaf.model });
    const events: AgentEvent[] = [];
    const run = agent.run('Write the intro.');
    const consumed = (async () => {
      for await (const event of run) events.push(event);
    })();
    const request = await deaf.started;
    agent.interrupt();
    const result = await run.result;
    await consumed;

    expect(request.signal?.aborted).toBe(true);
    expect(result.status).toBe('interrupted');
    expect(agent.messages.filter((message) => message.role === 'assistant')).toEqual([]);
    const seen = events.length;
    const emitted: AgentEvent[] = [];
    agent.on('text-delta', (event) => void emitted.push(event));

    deaf.release();
    await settle();
    expect(emitted).toEqual([]);
    expect(events).toHaveLength(seen);
    expect(events.some((event) => event.type === 'text-delta' && event.text === 'LATE DELTA')).toBe(false);
    // The loop stopped reading, which ends the model's generator.
    expect(deaf.ended()).toBe(true);
    expect(agent.messages.filter((message) => message.role === 'assistant')).toEqual([]);

    // The agent goes on normally afterwards (the released model now answers at once).
    const next = await agent.run('Go on.').result;
    expect(next.status).toBe('completed');
    expect(next.text).toBe('Thinking about LATE DELTA');
  });

  it('close() resolves without waiting for it, and nothing is written to the store afterwards', async () => {
    const deaf = deafModel();
    const { store, late, watch } = watchedStore();
    const agent = createAgent({ model: deaf.model, store, sessionId: 'deaf-close' });
    const run = agent.run('Write the intro.');
    await deaf.started;
    await agent.close();
    expect((await run.result).status).toBe('interrupted');

    watch();
    deaf.release();
    await settle();
    expect(late).toEqual([]);
    expect(deaf.ended()).toBe(true);
  });

  it("a subagent's deaf model does not hold up its parent's interrupt", async () => {
    const deaf = deafModel();
    const { store, late, watch } = watchedStore();
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'research', prompt: 'find sources', subagent_type: 'worker' }, 'call-1')), 'never reached']),
      agents: { worker: { description: 'worker', prompt: 'worker', model: deaf.model } },
      store,
      sessionId: 'deaf-subagent',
    });
    const run = agent.run('Research the article.');
    await deaf.started;
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    await agent.close();

    watch();
    deaf.release();
    await settle();
    expect(late).toEqual([]);
    expect(deaf.ended()).toBe(true);
  });

  it("interrupt() ends a compaction whose summary call ignores the signal; the history is unchanged", async () => {
    const deaf = deafModel(scriptedModel(['The intro is written.']));
    const agent = createAgent({ model: deaf.model });
    expect((await agent.run('Write the intro.').result).status).toBe('completed');
    const before = structuredClone(agent.messages);

    const compacting = agent.compact();
    await deaf.started;
    agent.interrupt();
    const outcome = await compacting;
    expect(outcome).toMatchObject({ compacted: false, skipped: 'interrupted' });
    expect(agent.messages).toEqual(before);

    deaf.release();
    await settle();
    expect(agent.messages).toEqual(before);
    expect(deaf.ended()).toBe(true);
  });
});
