import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  context.disable();
  await provider.shutdown();
});

const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}` });
const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: () => { throw new Error('disk full'); } });

const byName = (spans: ReadableSpan[], prefix: string) => spans.filter((span) => span.name.startsWith(prefix));
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('OpenTelemetry spans (the host\'s tracer, GenAI semantic conventions)', () => {
  it('traces the run, each model call, each tool call and each permission decision, nested', async () => {
    exporter.reset();
    const tracer = provider.getTracer('agent-harness-test');
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('read', { path: 'a.md' }, 'toolu_r'), toolCall('write', { path: 'b.md' }, 'toolu_w')), 'Done.'], { modelId: 'claude-sonnet-4-5' }),
      tools: [read, write],
      tracer,
      canUseTool: () => ({ behavior: 'allow' }),
    });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    const spans = exporter.getFinishedSpans();
    const [run] = byName(spans, 'invoke_agent');
    expect(run!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'claude-sonnet-4-5',
      'gen_ai.conversation.id': agent.sessionId,
      'agent_harness.run.id': result.runId,
      'agent_harness.run.status': 'completed',
      'agent_harness.run.turns': 2,
      'gen_ai.usage.output_tokens': result.usage.outputTokens,
    });
    const chats = byName(spans, 'chat ');
    expect(chats).toHaveLength(2);
    expect(chats[0]!.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.response.finish_reasons': ['tool_use'], 'gen_ai.usage.input_tokens': expect.any(Number) });
    expect(chats[0]!.kind).toBe(2);
    const tools = byName(spans, 'execute_tool');
    expect(tools.map((span) => [span.name, span.attributes['gen_ai.tool.call.id'], span.attributes['agent_harness.tool.outcome']])).toEqual([
      ['execute_tool read', 'toolu_r', 'ok'],
      ['execute_tool write', 'toolu_w', 'error'],
    ]);
    expect(tools[1]!.status.code).toBe(2);
    const permissions = byName(spans, 'permission');
    expect(permissions.map((span) => [span.attributes['gen_ai.tool.name'], span.attributes['agent_harness.permission.behavior'], span.attributes['agent_harness.permission.step']])).toEqual([
      ['read', 'allow', 'read-only'],
      ['write', 'allow', 'callback'],
    ]);
    for (const child of [...chats, ...tools, ...permissions]) expect(parentOf(child)).toBe(run!.spanContext().spanId);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('a failed tool call marks its span without the text of its error (a tool error may hold a secret)', async () => {
    exporter.reset();
    const tracer = provider.getTracer('agent-harness-test');
    const leaky = defineTool({ name: 'fetch', description: 'Fetches.', inputSchema: z.object({}), readOnly: true, execute: () => { throw new Error('GET https://api.example.com/?token=SECRET-123 answered 401'); } });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('fetch', {}, 'toolu_f')), 'Done.']), tools: [leaky], tracer });
    const events: unknown[] = [];
    agent.on('tool-result', (event) => events.push(event));
    expect((await agent.run('go').result).status).toBe('completed');
    const [span] = byName(exporter.getFinishedSpans(), 'execute_tool');
    expect(span!.status.code).toBe(2);
    expect(span!.attributes['agent_harness.tool.outcome']).toBe('error');
    expect(span!.attributes['error.type']).toBe('tool_error');
    expect(JSON.stringify([span!.status, span!.events, span!.attributes])).not.toContain('SECRET');
    // The host still gets the text, from the tool-result event.
    expect(JSON.stringify(events)).toContain('SECRET-123');
  });

  it('nests under the host\'s own span, and a failed run marks its span', async () => {
    exporter.reset();
    const tracer = provider.getTracer('agent-harness-test');
    const failing = { specificationVersion: 'v1' as const, provider: 'broken', modelId: 'm', async *stream() { throw new Error('no network'); } };
    await tracer.startActiveSpan('http request', async (outer) => {
      const result = await createAgent({ model: failing, tracer, maxStreamRetries: 0 }).run('go').result;
      expect(result.status).toBe('error');
      outer.end();
    });
    const spans = exporter.getFinishedSpans();
    const outer = spans.find((span) => span.name === 'http request')!;
    const [run] = byName(spans, 'invoke_agent');
    expect(parentOf(run!)).toBe(outer.spanContext().spanId);
    expect(run!.status.code).toBe(2);
    expect(run!.attributes['agent_harness.run.status']).toBe('error');
    void trace;
  });
});
