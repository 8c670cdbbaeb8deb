import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect, deferred, tick } from '../helpers.js';

function resultsOf(messages: readonly { role: string; content: unknown }[]): ToolResultBlock[] {
  const last = messages.filter((message) => message.role === 'user').at(-1)!;
  return (last.content as ToolResultBlock[]).filter((block) => block.type === 'tool_result');
}

describe('tool execution', () => {
  it('runs concurrency-safe calls in parallel and keeps results in tool_use order', async () => {
    const gates = [deferred(), deferred(), deferred()];
    let running = 0;
    let maxRunning = 0;
    const slowRead = defineTool({
      name: 'slow_read',
      description: 'Reads slowly.',
      inputSchema: z.object({ n: z.number() }),
      readOnly: true,
      execute: async ({ input }) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await gates[input.n]!.promise;
        running--;
        return `read ${input.n}`;
      },
    });
    const model = scriptedModel([
      turn(toolCall('slow_read', { n: 0 }, 'a'), toolCall('slow_read', { n: 1 }, 'b'), toolCall('slow_read', { n: 2 }, 'c')),
      'done',
    ]);
    const agent = createAgent({ model, tools: [slowRead] });
    const run = agent.run('go');
    while (running < 3) await tick();
    // Finish in reverse order: results must still follow tool_use order.
    gates[2]!.resolve();
    gates[1]!.resolve();
    gates[0]!.resolve();
    const result = await run.result;
    expect(result.status).toBe('completed');
    expect(maxRunning).toBe(3);
    const results = resultsOf(model.requests[1]!.messages);
    expect(results.map((block) => block.tool_use_id)).toEqual(['a', 'b', 'c']);
    expect(results.map((block) => block.content)).toEqual(['read 0', 'read 1', 'read 2']);
  });

  it('never runs more concurrency-safe calls at once than maxToolConcurrency, and keeps their order', async () => {
    let running = 0;
    let maxRunning = 0;
    const gates: Array<() => void> = [];
    const slowRead = defineTool({
      name: 'slow_read',
      description: 'Reads slowly.',
      inputSchema: z.object({ n: z.number() }),
      readOnly: true,
      execute: async ({ input }) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running--;
        return `read ${input.n}`;
      },
    });
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const model = scriptedModel([turn(...ids.map((id, n) => toolCall('slow_read', { n }, id))), 'done']);
    const agent = createAgent({ model, tools: [slowRead], maxToolConcurrency: 2 });
    const run = agent.run('go');
    // Release the calls one at a time, newest first, as they start.
    let released = 0;
    while (released < ids.length) {
      await tick();
      const gate = gates.pop();
      if (gate) {
        gate();
        released++;
      }
    }
    const result = await run.result;
    expect(result.status).toBe('completed');
    expect(maxRunning).toBe(2);
    const results = resultsOf(model.requests[1]!.messages);
    expect(results.map((block) => block.tool_use_id)).toEqual(ids);
    expect(results.map((block) => block.content)).toEqual(ids.map((_, n) => `read ${n}`));
  });

  it('does not start a parallel call once the run is interrupted, and reports a tool that rejects on its signal as interrupted', async () => {
    const executed: number[] = [];
    let agent: ReturnType<typeof createAgent>;
    const read = defineTool({
      name: 'read',
      description: 'Reads; the first call interrupts the run.',
      inputSchema: z.object({ n: z.number() }),
      readOnly: true,
      execute: ({ input, signal }) => {
        executed.push(input.n);
        if (input.n === 0) {
          // Synchronous answer, then the host interrupts while the batch is still starting.
          agent.interrupt('stop');
          return 'first';
        }
        return new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(new Error('saw abort')), { once: true }));
      },
    });
    const model = scriptedModel([turn(toolCall('read', { n: 0 }, 'a'), toolCall('read', { n: 1 }, 'b')), 'unused']);
    agent = createAgent({ model, tools: [read] });
    const result = await agent.run('go').result;
    expect(result.status).toBe('interrupted');
    // The second call of the parallel group never started: its tool did not run.
    expect(executed).toEqual([0]);
    const results = resultsOf(agent.messages);
    expect(results.map((block) => [block.tool_use_id, block.is_error === true])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(String(results[1]!.content)).toMatch(/interrupted/);
  });

  it('reports a tool that rejects when the run is interrupted as interrupted, not failed', async () => {
    let agent: ReturnType<typeof createAgent>;
    const started = deferred();
    const wait = defineTool({
      name: 'wait',
      description: 'Waits for its signal.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: ({ signal }) => {
        const pending = new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(new Error('saw abort')), { once: true }));
        started.resolve();
        return pending;
      },
    });
    const model = scriptedModel([turn(toolCall('wait', {}, 'w')), 'unused']);
    agent = createAgent({ model, tools: [wait] });
    const run = agent.run('go');
    await started.promise;
    agent.interrupt('stop');
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    const [block] = resultsOf(agent.messages);
    expect(block!.is_error).toBe(true);
    expect(String(block!.content)).toMatch(/interrupted this tool call/);
    expect(String(block!.content)).not.toMatch(/saw abort/);
  });

  it('runs calls that are not concurrency-safe one at a time, in order', async () => {
    const order: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const write = defineTool({
      name: 'write',
      description: 'Writes.',
      inputSchema: z.object({ id: z.string() }),
      kind: 'edit',
      execute: async ({ input }) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        order.push(`start ${input.id}`);
        await tick();
        order.push(`end ${input.id}`);
        running--;
        return 'ok';
      },
    });
    const model = scriptedModel([turn(toolCall('write', { id: '1' }), toolCall('write', { id: '2' }), toolCall('write', { id: '3' })), 'done']);
    const agent = createAgent({ model, tools: [write], canUseTool: () => ({ behavior: 'allow' }) });
    const { result } = await collect(agent.run('go'));
    expect(result.status).toBe('completed');
    expect(maxRunning).toBe(1);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('turns invalid input, unknown tools, throwing tools and timeouts into error results and goes on', async () => {
    const never = defineTool({
      name: 'never',
      description: 'Never finishes.',
      inputSchema: z.object({}),
      readOnly: true,
      timeoutMs: 5,
      execute: ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
    });
    const broken = defineTool({
      name: 'broken',
      description: 'Throws.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    const typed = defineTool({
      name: 'typed',
      description: 'Needs a number.',
      inputSchema: z.object({ count: z.number().int() }),
      readOnly: true,
      execute: () => 'fine',
    });
    const model = scriptedModel([
      turn(
        toolCall('typed', { count: 'three' }, 't1'),
        toolCall('missing_tool', {}, 't2'),
        toolCall('broken', {}, 't3'),
        toolCall('never', {}, 't4'),
      ),
      'recovered',
    ]);
    const agent = createAgent({ model, tools: [never, broken, typed] });
    const { result } = await collect(agent.run('go'));
    expect(result.status).toBe('completed');
    expect(result.text).toBe('recovered');
    const results = resultsOf(model.requests[1]!.messages);
    expect(results.every((block) => block.is_error === true)).toBe(true);
    expect(results[0]!.content).toMatch(/count/);
    expect(results[1]!.content).toMatch(/No tool named "missing_tool"/);
    expect(results[2]!.content).toMatch(/disk on fire/);
    expect(results[3]!.content).toMatch(/timed out after 5 ms/);
  });

  it('serializes non-string results as JSON and truncates long output with a note', async () => {
    const big = defineTool({ name: 'big', description: 'Big.', inputSchema: z.object({}), readOnly: true, execute: () => 'x'.repeat(500) });
    const json = defineTool({ name: 'json', description: 'JSON.', inputSchema: z.object({}), readOnly: true, execute: () => ({ a: 1 }) });
    const model = scriptedModel([turn(toolCall('big', {}), toolCall('json', {})), 'ok']);
    const agent = createAgent({ model, tools: [big, json], maxToolResultChars: 100 });
    await agent.run('go').result;
    const [bigResult, jsonResult] = resultsOf(model.requests[1]!.messages);
    expect(bigResult!.content).toMatch(/^x{100}\n\n\[Output truncated: showing the first 100 of 500 characters\.\]$/);
    expect(JSON.parse(jsonResult!.content as string)).toEqual({ a: 1 });
  });
});
