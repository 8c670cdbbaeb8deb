import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type Model, type ModelRequest } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { RunAbort } from '../../src/loop/run-abort.js';
import { deferred, tick } from '../helpers.js';

describe('RunAbort: a flag now, the AbortSignal when first asked for', () => {
  it('makes no signal until asked, and then one already aborted with the first reason', () => {
    const abort = new RunAbort(10);
    expect(abort.signalIfMade).toBeUndefined();
    const first = new Error('first');
    abort.abort(first);
    abort.abort(new Error('second'));
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe(first);
    expect(abort.signalIfMade).toBeUndefined();
    const signal = abort.signal;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(first);
    expect(abort.signal).toBe(signal);
  });

  it('aborts a signal made earlier, listeners first seeing the flag set', () => {
    const abort = new RunAbort(10);
    const signal = abort.signal;
    const seen: boolean[] = [];
    signal.addEventListener('abort', () => seen.push(abort.aborted, signal.aborted));
    const reason = new Error('stop');
    abort.abort(reason);
    expect(seen).toEqual([true, true]);
    expect(signal.reason).toBe(reason);
  });
});

describe('RunAbort.lendSignal: the signal as a property, made when read', () => {
  it('makes no signal until the property is read, then gives the run\'s own signal', () => {
    const abort = new RunAbort(10);
    const request = abort.lendSignal({ messages: [] as unknown[] });
    const args = abort.lendSignal({ input: {} });
    expect(abort.signalIfMade).toBeUndefined();
    expect(Object.keys(request)).toEqual(['messages', 'signal']);
    expect(JSON.stringify(request)).toBe('{"messages":[],"signal":{}}');
    const signal = request.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(abort.signalIfMade).toBe(signal);
    expect(args.signal).toBe(signal);
    expect(abort.signal).toBe(signal);
  });

  it('read after the run was interrupted, it is already aborted with the run\'s reason', () => {
    const abort = new RunAbort(10);
    const request = abort.lendSignal({});
    const reason = new Error('interrupted before the model looked');
    abort.abort(reason);
    expect(request.signal.aborted).toBe(true);
    expect(request.signal.reason).toBe(reason);
  });

  it('a spread copies the signal (made then) as a plain field, and the copy is aborted with the run', () => {
    const abort = new RunAbort(10);
    const request = abort.lendSignal({ messages: ['a'] });
    const copy = { ...request, messages: ['b'] };
    expect(Object.getOwnPropertyDescriptor(copy, 'signal')).toMatchObject({ writable: true, enumerable: true });
    expect(copy.signal).toBe(abort.signalIfMade);
    abort.abort(new Error('stop'));
    expect(copy.signal.aborted).toBe(true);
  });

  it('assigning the property replaces it, as on a plain object (no TypeError for a getter without a setter)', () => {
    const abort = new RunAbort(10);
    const request = abort.lendSignal({} as { signal?: AbortSignal });
    const own = new AbortController().signal;
    request.signal = own;
    expect(request.signal).toBe(own);
    expect(Object.getOwnPropertyDescriptor(request, 'signal')).toMatchObject({ value: own, writable: true, enumerable: true, configurable: true });
    expect(abort.signalIfMade).toBeUndefined();
    delete (request as { signal?: AbortSignal }).signal;
    expect('signal' in request).toBe(false);
  });

  it('after eight lazy properties in a run the signal is made and lent as a plain field; once made, always a plain field', () => {
    const abort = new RunAbort(10);
    for (let index = 0; index < 8; index++) {
      const lent = abort.lendSignal({});
      expect(Object.getOwnPropertyDescriptor(lent, 'signal')!.get).toBeTypeOf('function');
    }
    expect(abort.signalIfMade).toBeUndefined();
    const ninth = abort.lendSignal({});
    expect(abort.signalIfMade).toBeInstanceOf(AbortSignal);
    expect(Object.getOwnPropertyDescriptor(ninth, 'signal')).toMatchObject({ value: abort.signalIfMade, writable: true });
    const other = new RunAbort(10);
    const made = other.signal;
    expect(Object.getOwnPropertyDescriptor(other.lendSignal({}), 'signal')).toMatchObject({ value: made });
  });
});

describe('RunAbort.whenAborted: a listener on the flag, no signal made', () => {
  it('calls each listener once on abort, after the signal (if made) and a race; one taken off is not called', () => {
    const abort = new RunAbort(10);
    const seen: string[] = [];
    abort.whenAborted(() => seen.push(`first ${String(abort.aborted)}`));
    const off = abort.whenAborted(() => seen.push('taken off'));
    abort.whenAborted(() => seen.push('second'));
    off();
    expect(abort.signalIfMade).toBeUndefined();
    abort.abort(new Error('stop'));
    abort.abort(new Error('again'));
    expect(seen).toEqual(['first true', 'second']);
    expect(abort.signalIfMade).toBeUndefined();
  });

  it('calls a listener added after the abort at once', () => {
    const abort = new RunAbort(10);
    abort.abort(new Error('stop'));
    let called = 0;
    abort.whenAborted(() => called++);
    expect(called).toBe(1);
  });

  it('a run with a session store whose model and tools never read the signal makes no AbortController', async () => {
    const Original = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        made++;
      }
    };
    try {
      // A model that never looks at the request's signal (scriptedModel listens to it).
      const model: Model = {
        specificationVersion: 'v1',
        provider: 'test',
        modelId: 'deaf',
        async *stream() {
          yield { type: 'response', response: { message: { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] }, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } } };
        },
      };
      const agent = createAgent({ model, store: memorySessionStore() });
      await agent.ready;
      made = 0;
      expect((await agent.run('Hi.').result).status).toBe('completed');
      expect(made).toBe(0);
      await agent.close();
    } finally {
      globalThis.AbortController = Original;
    }
  });
});

describe('RunAbort.race: host work the run does not wait for once interrupted', () => {
  it('settles like the work while the run goes on', async () => {
    const abort = new RunAbort(10);
    await expect(abort.race(Promise.resolve('answer'))).resolves.toBe('answer');
    const failure = new Error('model failed');
    await expect(abort.race(Promise.reject(failure))).rejects.toBe(failure);
    // A race that ended leaves nothing behind: a later abort wakes no one and throws nothing.
    abort.abort(new Error('later'));
  });

  it('rejects with the reason at once on abort, and absorbs the work settling later (no unhandled rejection)', async () => {
    const abort = new RunAbort(10);
    const work = deferred<string>();
    const raced = abort.race(work.promise);
    const reason = new Error('interrupted');
    abort.abort(reason);
    await expect(raced).rejects.toBe(reason);
    work.reject(new Error('the stream failed after all'));
    await tick();
  });

  it('rejects at once when the run was already interrupted', async () => {
    const abort = new RunAbort(10);
    const reason = new Error('gone');
    abort.abort(reason);
    const work = deferred<string>();
    await expect(abort.race(work.promise)).rejects.toBe(reason);
    work.reject(new Error('late'));
    await tick();
  });

  it('wakes the race waiting now, after earlier ones ended', async () => {
    const abort = new RunAbort(10);
    await abort.race(Promise.resolve(1));
    await expect(abort.race(Promise.reject(new Error('x')))).rejects.toThrow('x');
    const raced = abort.race(new Promise<number>(() => undefined));
    const reason = new Error('stop');
    abort.abort(reason);
    await expect(raced).rejects.toBe(reason);
  });
});

describe("the run's signal through the agent", () => {
  it('a hook running before the first model call gets a signal that interrupt() aborts, and no model call follows', async () => {
    const hookStarted = deferred();
    let hookSignal: AbortSignal | undefined;
    const model = scriptedModel(['never']);
    const agent = createAgent({
      model,
      hooks: {
        UserPromptSubmit: [
          {
            hook: (input) => {
              const signal = input.signal;
              hookSignal = signal;
              hookStarted.resolve();
              return new Promise((resolve) => signal.addEventListener('abort', () => resolve({}), { once: true }));
            },
          },
        ],
      },
    });
    const run = agent.run('go');
    await hookStarted.promise;
    expect(hookSignal!.aborted).toBe(false);
    agent.interrupt('host stopped it');
    const result = await run.result;
    expect(hookSignal!.aborted).toBe(true);
    expect((hookSignal!.reason as Error).message).toBe('host stopped it');
    expect(result.status).toBe('interrupted');
    expect(model.requests).toHaveLength(0);
  });

  it('an external signal aborted before run() starts ends it interrupted with no model call', async () => {
    const model = scriptedModel(['never']);
    const agent = createAgent({ model });
    const result = await agent.run('go', { signal: AbortSignal.abort(new Error('too late')) }).result;
    expect(result.status).toBe('interrupted');
    expect(model.requests).toHaveLength(0);
  });

  it("the model's request and a tool's arguments carry the same signal, which interrupt() aborts with its reason", async () => {
    const requests: ModelRequest[] = [];
    const inner = scriptedModel([turn(toolCall('wait', {})), 'Done.']);
    const model: Model = { ...inner, stream: (request) => (requests.push(request), inner.stream(request)) };
    const started = deferred();
    let toolSignal: AbortSignal | undefined;
    const wait = defineTool({
      name: 'wait',
      description: 'Waits to be stopped.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: ({ signal }) => {
        toolSignal = signal;
        started.resolve();
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped'), { once: true }));
      },
    });
    const agent = createAgent({ model, tools: [wait] });
    const run = agent.run('go');
    await started.promise;
    expect(requests[0]!.signal).toBe(toolSignal);
    agent.interrupt('enough');
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(toolSignal!.aborted).toBe(true);
    expect((toolSignal!.reason as Error).message).toBe('enough');
  });

  it('a model wrapper that spreads the request, or replaces its signal, still stops on interrupt()', async () => {
    const held = () => turn('never', { hold: (signal) => new Promise<void>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true })) });
    const inner = scriptedModel([held(), held()]);
    const seen: AbortSignal[] = [];
    const spreading: Model = { ...inner, stream: (request) => (seen.push(request.signal!), inner.stream({ ...request, messages: [...request.messages] })) };
    const agent = createAgent({ model: spreading });
    const run = agent.run('go');
    await tick();
    agent.interrupt('stop');
    expect((await run.result).status).toBe('interrupted');
    expect(seen[0]!.aborted).toBe(true);

    const own = new AbortController();
    const replacing: Model = {
      ...inner,
      stream: (request) => {
        const theirs = request.signal!;
        request.signal = own.signal;
        theirs.addEventListener('abort', () => own.abort(theirs.reason), { once: true });
        return inner.stream(request);
      },
    };
    const second = createAgent({ model: replacing });
    const run2 = second.run('go');
    await tick();
    second.interrupt('stop again');
    expect((await run2.result).status).toBe('interrupted');
    expect(own.signal.aborted).toBe(true);
  });

  it("a listener that interrupts on the final answer's turn-end ends the run interrupted (no Stop hook, no store)", async () => {
    const agent = createAgent({ model: scriptedModel(['Hello.']) });
    agent.on('turn-end', () => agent.interrupt());
    expect((await agent.run('Hi.').result).status).toBe('interrupted');
  });

  it('each run gets a signal of its own: an interrupted run leaves the next one unaborted', async () => {
    const signals: AbortSignal[] = [];
    const inner = scriptedModel(['one', 'two']);
    const model: Model = { ...inner, stream: (request) => (signals.push(request.signal!), inner.stream(request)) };
    const agent = createAgent({ model });
    await agent.run('first').result;
    agent.interrupt();
    const second = await agent.run('second').result;
    expect(second.status).toBe('completed');
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
    expect(signals[1]!.aborted).toBe(false);
  });
});
