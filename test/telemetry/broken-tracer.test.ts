import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, TracerError, type AgentEvent, type SpanLike, type TracerLike } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}` });
const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: () => { throw new Error('disk full'); } });

/** A span whose `method` throws; the others record nothing. */
function spanThrowingIn(method: keyof SpanLike): SpanLike {
  const span: SpanLike = { setAttribute: () => span, setStatus: () => span, recordException: () => undefined, end: () => undefined };
  span[method] = () => {
    throw new Error(`${method} broke`);
  };
  return span;
}

/** A tracer that hands `span` to every callback, as a real one would. */
const tracerWith = (span: SpanLike): TracerLike => ({ startActiveSpan: (_name, _options, fn) => fn(span) });

const BROKEN_TRACERS: Record<string, TracerLike> = {
  'startActiveSpan throws': {
    startActiveSpan() {
      throw new Error('exporter misconfigured');
    },
  },
  'startActiveSpan never calls back': { startActiveSpan: () => undefined as never },
  'startActiveSpan calls back, then throws': {
    startActiveSpan(_name, _options, fn) {
      fn(spanThrowingIn('end'));
      throw new Error('context manager broke');
    },
  },
  'span.setAttribute throws': tracerWith(spanThrowingIn('setAttribute')),
  'span.setStatus throws': tracerWith(spanThrowingIn('setStatus')),
  'span.end throws': tracerWith(spanThrowingIn('end')),
  'the callback gets no span': { startActiveSpan: (_name, _options, fn) => fn(undefined as never) },
};

async function runWith(tracer: TracerLike) {
  const agent = createAgent({
    model: scriptedModel([turn(toolCall('read', { path: 'a.md' }, 'toolu_r'), toolCall('write', { path: 'b.md' }, 'toolu_w')), 'Done.']),
    tools: [read, write],
    tracer,
    canUseTool: () => ({ behavior: 'allow' }),
  });
  const run = agent.run('go');
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return { agent, events, result: await run.result.catch((error: unknown) => ({ rejected: error })) };
}

describe('a tracer that fails never breaks a run', () => {
  for (const [name, tracer] of Object.entries(BROKEN_TRACERS)) {
    it(`${name}: the run completes, the tool errors are still the tools', and the failure is reported once`, async () => {
      const { events, result } = await runWith(tracer);
      expect(result).toMatchObject({ status: 'completed', text: 'Done.', turns: 2 });
      const results = events.filter((event) => event.type === 'tool-result');
      expect(results.map((event) => [event.toolUseId, event.isError])).toEqual([
        ['toolu_r', false],
        ['toolu_w', true],
      ]);
      const errors = events.filter((event) => event.type === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ fatal: false });
      const error = errors[0]!.error;
      expect(TracerError.isInstance(error)).toBe(true);
      expect(error.message).toMatch(/createAgent\(\{ tracer \}\) failed in (startActiveSpan|span\.\w+)/);
      expect(events[0]!.type).toBe('run-start');
      expect(events.at(-1)!.type).toBe('run-end');
    });
  }

  it('span.recordException throws (a failed model call records its error): the run fails with that error, and the failure is reported once', async () => {
    const failing = { specificationVersion: 'v1' as const, provider: 'broken', modelId: 'm', async *stream() { throw new Error('no network'); } };
    const run = createAgent({ model: failing, tracer: tracerWith(spanThrowingIn('recordException')), maxStreamRetries: 0 }).run('go');
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;
    expect(result.status).toBe('error');
    expect(result.error!.message).toContain('no network');
    const tracerErrors = events.filter((event) => event.type === 'error' && TracerError.isInstance(event.error));
    expect(tracerErrors).toHaveLength(1);
    expect(tracerErrors[0]!.type === 'error' && tracerErrors[0]!.error.message).toMatch(/failed in span\.recordException/);
  });

  it('reports once per run: a second run with the same tracer reports again', async () => {
    const agent = createAgent({ model: scriptedModel(['one', 'two']), tracer: BROKEN_TRACERS['startActiveSpan throws']! });
    for (const prompt of ['first', 'second']) {
      const run = agent.run(prompt);
      const errors: AgentEvent[] = [];
      for await (const event of run) if (event.type === 'error') errors.push(event);
      expect((await run.result).status).toBe('completed');
      expect(errors).toHaveLength(1);
    }
  });

  it('a subagent\'s spans that fail are reported on the parent\'s run, once', async () => {
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'look', prompt: 'look around', subagent_type: 'worker' })), 'sub done', 'parent done']),
      agents: { worker: { description: 'Works.', prompt: 'Work.' } },
      tracer: BROKEN_TRACERS['span.end throws']!,
    });
    const run = agent.run('go');
    const errors: AgentEvent[] = [];
    for await (const event of run) if (event.type === 'error') errors.push(event);
    expect(await run.result).toMatchObject({ status: 'completed', text: 'parent done' });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.agentId).toBeUndefined();
  });
});
