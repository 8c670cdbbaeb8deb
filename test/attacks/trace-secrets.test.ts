import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, StructuredOutputError } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

/**
 * README "Traces": spans carry no prompt, model text, tool input or tool output. A run that tries
 * every place such text could slip into a span: the prompt, the model's text, tool inputs and
 * outputs, a tool error, an invalid input, a denied call, an unknown tool, and a run ending with a
 * StructuredOutputError (whose message quotes what the model answered).
 */
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
afterAll(() => provider.shutdown());

const SECRET = 'sk-secret-';

const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents ${SECRET}out of ${input.path}` });
const write = defineTool({
  name: 'write',
  description: 'Writes.',
  inputSchema: z.object({ path: z.string() }),
  kind: 'edit',
  execute: ({ input }) => {
    throw new Error(`disk ${SECRET}error at ${input.path}`);
  },
});
const count = defineTool({ name: 'count', description: 'Counts.', inputSchema: z.object({ n: z.number() }), readOnly: true, execute: () => 'one' });

/** Every span of the run as one string: names, attributes, events and statuses. */
const spansText = () => JSON.stringify(exporter.getFinishedSpans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })));

describe('spans carry no prompt, model text, tool input or tool output', () => {
  it('through tool calls that succeed, fail, are invalid, denied or unknown, and a typed output the model never got right', async () => {
    exporter.reset();
    const model = scriptedModel([
      turn(
        `Thinking about ${SECRET}text.`,
        toolCall('read', { path: `${SECRET}in-read` }),
        toolCall('write', { path: `${SECRET}in-write` }),
        toolCall('count', { n: `${SECRET}in-count` }),
        toolCall('write', { path: `${SECRET}denied` }),
        toolCall('missing', { q: `${SECRET}in-missing` }),
      ),
      turn(toolCall('StructuredOutput', { n: `${SECRET}answer-1` })),
      turn(toolCall('StructuredOutput', { n: `${SECRET}answer-2` })),
    ]);
    const agent = createAgent({
      model,
      tools: [read, write, count],
      tracer: provider.getTracer('attack'),
      rules: { deny: [`write(${SECRET}denied)`] },
      canUseTool: () => ({ behavior: 'allow' }),
    });
    const result = await agent.run(`Please use ${SECRET}prompt.`, { outputSchema: z.object({ n: z.number() }) }).result;
    // The run failed as the host sees it, with the values in the error it gets.
    expect(result.status).toBe('error');
    expect(StructuredOutputError.isInstance(result.error)).toBe(true);
    expect(result.error!.message).toContain(`${SECRET}answer-2`);
    // The trace has the failure, without the model's answer.
    const spans = exporter.getFinishedSpans();
    const run = spans.find((span) => span.name.startsWith('invoke_agent'))!;
    expect(run.status.code).toBe(2);
    expect(run.status.message).toMatch(/typed output/);
    expect(run.events.some((event) => event.name === 'exception')).toBe(true);
    expect(spans.filter((span) => span.name.startsWith('execute_tool')).length).toBeGreaterThanOrEqual(2);
    expect(spansText()).not.toContain(SECRET);
  });
});
