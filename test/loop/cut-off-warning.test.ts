import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { z } from 'zod';
import { scriptedModel, text, toolCall, turn } from 'agent-harness/testing';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer, type MessagesServer } from '../../src/testing/messages-server/index.js';
import { collect, echoTool } from '../helpers.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const warningsOf = (events: Array<{ type: string }>) => events.filter((event) => event.type === 'warning') as Array<{ type: 'warning'; source: string; message: string }>;

describe('a run that completes on a cut-off answer warns', () => {
  it.each([
    ['max_tokens', 'maxTokens'],
    ['model_context_window_exceeded', 'compact'],
    ['refusal', 'refus'],
  ] as const)('%s: one model warning, naming the reason and the cure, before run-end', async (stopReason, cure) => {
    const agent = createAgent({ model: scriptedModel([turn('Half an arti', { stopReason })]) });
    const { events, result } = await collect(agent.run('Write it.'));
    expect(result).toMatchObject({ status: 'completed', stopReason });
    const warnings = warningsOf(events);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ source: 'model' });
    expect(warnings[0]!.message).toContain(`"${stopReason}"`);
    expect(warnings[0]!.message).toContain(cure);
    const types = events.map((event) => event.type);
    expect(types.indexOf('warning')).toBe(types.indexOf('run-end') - 1);
  });

  it('an answer that finished, or a cut-off answer the run went on from, warns of nothing', async () => {
    const finished = await collect(createAgent({ model: scriptedModel(['Done.']) }).run('go'));
    expect(warningsOf(finished.events)).toEqual([]);
    // Cut off mid-turn, then a whole answer: the run's last answer is whole.
    const model = scriptedModel([turn(text('Let me'), toolCall('echo', { text: 'a' }), { stopReason: 'max_tokens' }), 'All done.']);
    const later = await collect(createAgent({ model, tools: [echoTool] }).run('go'));
    expect(later.result.stopReason).toBe('end_turn');
    expect(warningsOf(later.events)).toEqual([]);
  });

  it('listeners get it too (agent.on)', async () => {
    const agent = createAgent({ model: scriptedModel([turn('Half', { stopReason: 'max_tokens' })]) });
    const heard: string[] = [];
    agent.on('warning', (event) => heard.push(event.source));
    await agent.run('go').result;
    expect(heard).toEqual(['model']);
  });

  it('a run that fails on the cut-off answer reports the error, not a warning', async () => {
    const agent = createAgent({ model: scriptedModel([turn('{"title": "Ha', { stopReason: 'max_tokens' })]) });
    const { events, result } = await collect(agent.run('go', { outputSchema: z.object({ title: z.string() }), outputMode: 'text', outputRetries: 0 }));
    expect(result.status).toBe('error');
    expect(warningsOf(events)).toEqual([]);
    expect(events.some((event) => event.type === 'error')).toBe(true);
  });

  it('through the real SDK: an answer streamed to max_tokens', async () => {
    server = await startMessagesServer({ responses: [{ content: [{ type: 'text', text: 'Half an article' }], stopReason: 'max_tokens' }] });
    const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }) });
    const { events, result } = await collect(agent.run('Write it.'));
    expect(result.stopReason).toBe('max_tokens');
    expect(warningsOf(events).map((warning) => warning.message)).toEqual([expect.stringContaining('maxTokens')]);
  });
});
