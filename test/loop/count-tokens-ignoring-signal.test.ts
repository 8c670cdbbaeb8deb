// A custom Model whose countTokens ignores `request.signal`: interrupt() and close() must not wait
// for the count, and no model call follows it.
import { describe, expect, it } from 'vitest';
import { createAgent, type Agent, type Model, type ModelRequest, type TokenCount } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

/** A scripted model whose counts never finish, whatever their signal says. */
function deafCounter() {
  const counting = deferred<ModelRequest>();
  let streams = 0;
  const inner = scriptedModel(['Done.']);
  const model: Model = {
    ...inner,
    capabilities: { ...inner.capabilities, countTokens: true },
    stream(request) {
      streams++;
      return inner.stream(request);
    },
    countTokens(request) {
      counting.resolve(request);
      return new Promise<TokenCount>(() => {});
    },
  };
  return { model, counting: counting.promise, streams: () => streams };
}

describe('a Model whose countTokens ignores its signal', () => {
  it('interrupt() ends the run while the count hangs, and no model call follows', async () => {
    const deaf = deafCounter();
    const agent = createAgent({ model: deaf.model });
    const run = agent.run('Write the intro.');
    const request = await deaf.counting;
    await agent.interrupt();
    const result = await run.result;
    expect(request.signal?.aborted).toBe(true);
    expect(result.status).toBe('interrupted');
    expect(deaf.streams()).toBe(0);
  });

  it('close() ends the run while the count hangs', async () => {
    const deaf = deafCounter();
    const agent = createAgent({ model: deaf.model });
    const run = agent.run('Write the intro.');
    await deaf.counting;
    await agent.close();
    expect((await run.result).status).toBe('interrupted');
    expect(deaf.streams()).toBe(0);
  });
});

describe('countTokens', () => {
  it('counts when the model gives its count as a plain object rather than a promise', async () => {
    const inner = scriptedModel(['Done.']);
    let agent!: Agent;
    let seen: unknown;
    const model: Model = {
      ...inner,
      capabilities: { ...inner.capabilities, countTokens: true },
      stream(request) {
        seen = agent.contextUsage;
        return inner.stream(request);
      },
      countTokens: (() => ({ inputTokens: 4242 })) as unknown as Model['countTokens'],
    };
    agent = createAgent({ model });
    expect((await agent.run('Hello.').result).status).toBe('completed');
    expect(seen).toMatchObject({ tokens: 4242, source: 'count' });
  });
});
