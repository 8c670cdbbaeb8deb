import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, type AgentEvent, type AgentRun } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { AgentRun as AgentRunClass } from '../../src/agent/agent-run.js';
import { coreOfAgent } from '../../src/agent/agent.js';
import { interruptedBeforeStart } from '../../src/agent/failed-before-start.js';

const TYPES = ['run-start', 'turn-start', 'text-delta', 'context-usage', 'tool-call', 'turn-end', 'permission-decision', 'tool-result', 'run-end'] as const;

const look = defineTool({ name: 'look', description: 'Looks.', inputSchema: z.object({}), readOnly: true, execute: () => 'seen' });

/** An agent whose run streams `deltas` text deltas, calls a tool, then answers; `heard` gets every event of the listed types through listeners. */
function streamingAgent(deltas: number) {
  const text = 'x'.repeat(deltas);
  const agent = createAgent({ model: scriptedModel([turn(text, toolCall('look', {})), 'Done.'], { chunkSize: 1 }), tools: [look] });
  const heard: AgentEvent[] = [];
  for (const type of TYPES) agent.on(type, (event) => heard.push(event));
  return { agent, heard };
}

async function drain(run: AgentRun): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** What the run still holds for an iterator (white-box: the memory a run keeps). */
const held = (run: AgentRun) => (run as unknown as { buffer: unknown[] }).buffer.filter((event) => event !== undefined).length;

const ofTypes = (events: AgentEvent[]) => events.filter((event) => (TYPES as readonly string[]).includes(event.type));

describe('AgentRun events', () => {
  it('keeps every event for an iterator that starts after the run ended, in the order listeners got them', async () => {
    const { agent, heard } = streamingAgent(50);
    const run = agent.run('go');
    await run.result;
    expect(held(run)).toBeGreaterThan(50);
    const events = await drain(run);
    expect(ofTypes(events)).toEqual(heard);
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(50 + 'Done.'.length);
    expect(held(run)).toBe(0);
  });

  it('an iterated run does not keep a slot per event it handed out: a long run holds what is not read yet', async () => {
    const { agent } = streamingAgent(6_000);
    const run = agent.run('go');
    const slots = () => (run as unknown as { buffer: unknown[] }).buffer.length;
    let most = 0;
    let deltas = 0;
    for await (const event of run) {
      most = Math.max(most, slots());
      if (event.type === 'text-delta') deltas++;
    }
    expect(deltas).toBe(6_000 + 'Done.'.length);
    // Consumed slots are dropped once they outnumber the rest (1,024 at least): 6,000 without.
    expect(most).toBeLessThanOrEqual(2 * 1024 + 16);
  });

  it('an iterator that starts late reads every buffered event in order, across the drops of consumed slots', async () => {
    const { agent, heard } = streamingAgent(3_000);
    const run = agent.run('go');
    await run.result;
    const events = await drain(run);
    expect(ofTypes(events)).toEqual(heard);
    expect(held(run)).toBe(0);
  });

  it('is iterated once', async () => {
    const { agent } = streamingAgent(3);
    const run = agent.run('go');
    await drain(run);
    await expect(drain(run)).rejects.toThrow(/already being iterated; iterate a run once, or use agent\.on/);
    const error = await drain(run).catch((caught: unknown) => caught);
    expect(ConfigurationError.isInstance(error)).toBe(true);
  });

  it('keeps nothing once its iteration ended early: nobody can read it', async () => {
    const { agent, heard } = streamingAgent(200);
    const run = agent.run('go');
    for await (const event of run) if (event.type === 'text-delta') break;
    const result = await run.result;
    expect(result.status).toBe('completed');
    expect(held(run)).toBe(0);
    // Listeners still got the whole run.
    expect(heard.filter((event) => event.type === 'text-delta')).toHaveLength(200 + 'Done.'.length);
    expect(heard.at(-1)?.type).toBe('run-end');
  });

  describe('with bufferEvents: false', () => {
    it('gives an iterator that starts at once every event, like the default', async () => {
      const buffered = streamingAgent(30);
      const expected = ofTypes(await drain(buffered.agent.run('go')));
      const { agent } = streamingAgent(30);
      const events = ofTypes(await drain(agent.run('go', { bufferEvents: false })));
      const shape = (list: AgentEvent[]) => list.map((event) => [event.type, 'text' in event ? event.text : undefined]);
      expect(shape(events)).toEqual(shape(expected));
    });

    it('keeps nothing for a run nobody iterates, while listeners get everything', async () => {
      const { agent, heard } = streamingAgent(500);
      const run = agent.run('go', { bufferEvents: false });
      const result = await run.result;
      expect(result.status).toBe('completed');
      expect(held(run)).toBe(0);
      expect(heard.filter((event) => event.type === 'text-delta')).toHaveLength(500 + 'Done.'.length);
      // A late iterator gets nothing and ends at once.
      expect(await drain(run)).toEqual([]);
    });

    it('gives an iterator that starts midway the events from then on, in order, none twice', async () => {
      const { agent, heard } = streamingAgent(40);
      const run = agent.run('go', { bufferEvents: false });
      let seenByListener = 0;
      const started = new Promise<void>((resolve) =>
        agent.on('text-delta', () => {
          if (++seenByListener === 10) resolve();
        }),
      );
      await started;
      const events = ofTypes(await drain(run));
      const from = heard.length - events.length;
      expect(from).toBeGreaterThanOrEqual(10);
      expect(events).toEqual(heard.slice(from));
      expect(events.at(-1)?.type).toBe('run-end');
    });

    it('is refused when it is not a boolean, naming the option', () => {
      const { agent } = streamingAgent(1);
      expect(() => agent.run('go', { bufferEvents: 'no' as never })).toThrow(ConfigurationError);
      expect(() => agent.run('go', { bufferEvents: 'no' as never })).toThrow(/bufferEvents/);
    });
  });
});

describe('AgentRun.result never rejects', () => {
  it('a loop that throws past its own error handling (a bug) still ends the run as `error`, with a fatal error event and run-end', async () => {
    const agent = createAgent({ model: scriptedModel(['hello']) });
    await agent.ready;
    const core = coreOfAgent(agent);
    const commit = core.commit.bind(core);
    const bug = new Error('a bug in the loop');
    // White-box: recording the end of a run fails every time, so the loop's own catch fails too.
    core.commit = (entry) => {
      if (entry.kind === 'run-end') throw bug;
      return commit(entry);
    };
    const run = agent.run('go');
    const events = await drain(run);
    const result = await run.result;
    expect(result).toMatchObject({ status: 'error', runId: run.runId, sessionId: agent.sessionId });
    expect(result.error).toBe(bug);
    // (The loop's own catch told of it too, before recording the end failed again.)
    expect(events.filter((event) => event.type === 'error').at(-1)).toMatchObject({ error: bug, fatal: true });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', result: { status: 'error' } });
  });

  it('a run whose start rejects resolves with the error result it is given', async () => {
    const bug = new Error('unexpected');
    const run = new AgentRunClass('run_1', async () => { throw bug; }, (error) => ({ ...interruptedBeforeStart('run_1', 's'), status: 'error', error: error as Error }));
    await expect(run.result).resolves.toMatchObject({ status: 'error', error: bug });
    expect(await drain(run)).toEqual([]);
  });
});

/** A run that pushes `events` at once and then waits for `release` before it ends; nothing in between. */
function blockedRun() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let push!: (event: AgentEvent) => void;
  const event = (n: number) => ({ type: 'text-delta', text: `t${n}` }) as unknown as AgentEvent;
  const run = new AgentRunClass(
    'run_1',
    async (pushEvent) => {
      push = pushEvent;
      pushEvent(event(1));
      await released;
      pushEvent(event(2));
      return interruptedBeforeStart('run_1', 's');
    },
    () => interruptedBeforeStart('run_1', 's'),
  );
  return { run, release, push: (n: number) => push(event(n)) };
}

/** What `promise` settled with by the next turn of the event loop, or 'pending' (no wall clock involved). */
const settledSoon = <T>(promise: Promise<T>) => Promise.race([promise, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);

describe('AgentRun iterator return() while a next() is pending', () => {
  it('ends the pending next() with done and resolves return() at once, though the run has no event coming', async () => {
    const { run, release } = blockedRun();
    const iterator = run[Symbol.asyncIterator]();
    expect(await iterator.next()).toMatchObject({ done: false, value: { text: 't1' } });
    const pending = iterator.next();
    expect(await settledSoon(pending)).toBe('pending');
    const returned = iterator.return!();
    expect(await settledSoon(returned)).toEqual({ done: true, value: undefined });
    expect(await settledSoon(pending)).toEqual({ done: true, value: undefined });
    // The run itself goes on; what it says next has no reader and is not kept.
    release();
    await run.result;
    expect(held(run)).toBe(0);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    await expect(drain(run)).rejects.toThrow(/already being iterated/);
  });

  it('lets another task stop a for await that is waiting for an event', async () => {
    const { run, release } = blockedRun();
    const iterator = run[Symbol.asyncIterator]();
    const seen: string[] = [];
    const consumer = (async () => {
      for await (const event of { [Symbol.asyncIterator]: () => iterator }) seen.push((event as { text: string }).text);
      return 'ended';
    })();
    await settledSoon(consumer);
    expect(seen).toEqual(['t1']);
    await iterator.return!();
    expect(await settledSoon(consumer)).toBe('ended');
    release();
    await run.result;
  });

  it('ends every queued next() and keeps their order when events do come', async () => {
    const { run, release, push } = blockedRun();
    const iterator = run[Symbol.asyncIterator]();
    const first = iterator.next();
    const second = iterator.next();
    const third = iterator.next();
    expect(await first).toMatchObject({ value: { text: 't1' } });
    push(7);
    expect(await second).toMatchObject({ done: false, value: { text: 't7' } });
    expect(await settledSoon(third)).toBe('pending');
    const fourth = iterator.next();
    await iterator.return!();
    expect(await third).toEqual({ done: true, value: undefined });
    expect(await fourth).toEqual({ done: true, value: undefined });
    release();
    await run.result;
  });

  it('a return() before the first next() does not claim the run: another iterator still reads every event', async () => {
    const { run, release } = blockedRun();
    const unused = run[Symbol.asyncIterator]();
    expect(await unused.return!()).toEqual({ done: true, value: undefined });
    expect(await unused.next()).toEqual({ done: true, value: undefined });
    release();
    const events = await drain(run);
    expect(events.map((event) => (event as { text: string }).text)).toEqual(['t1', 't2']);
  });

  it('an iterator that ended gives done to later next() calls, and a second reader is refused', async () => {
    const { run, release } = blockedRun();
    release();
    const iterator = run[Symbol.asyncIterator]();
    const texts: string[] = [];
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) texts.push((step.value as { text: string }).text);
    expect(texts).toEqual(['t1', 't2']);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    await expect(run[Symbol.asyncIterator]().next()).rejects.toThrow(ConfigurationError);
  });
});
