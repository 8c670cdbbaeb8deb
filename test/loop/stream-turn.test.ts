import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, BUILTIN_AGENTS, createAgent, defineTool, ModelError, type AgentEvent, type ContentBlock } from 'agent-harness';
import { scriptedModel, thinking, toolCall, turn } from 'agent-harness/testing';
import { startMessagesServer, type MessagesServer, type MessagesServerTurn } from 'agent-harness/testing/messages-server';
import { collect } from '../helpers.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function modelFor(url: string) {
  return anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: url, maxRetries: 0 });
}

/**
 * A host that follows the documented rule: per agent, deltas accumulate, and a `stream-retry`
 * drops what that agent's turn streamed since its `turn-start`.
 */
function hostView(events: readonly AgentEvent[]) {
  const views = new Map<string, { text: string; thinking: string; turnText: number; turnThinking: number }>();
  for (const event of events) {
    const key = event.agentId ?? 'main';
    let view = views.get(key);
    if (!view) views.set(key, (view = { text: '', thinking: '', turnText: 0, turnThinking: 0 }));
    if (event.type === 'turn-start') {
      view.turnText = view.text.length;
      view.turnThinking = view.thinking.length;
    } else if (event.type === 'stream-retry') {
      view.text = view.text.slice(0, view.turnText);
      view.thinking = view.thinking.slice(0, view.turnThinking);
    } else if (event.type === 'text-delta') view.text += event.text;
    else if (event.type === 'thinking-delta') view.thinking += event.thinking;
  }
  return views;
}

/** Event types, with deltas run together as `text-delta*` / `thinking-delta*`. */
function shape(events: readonly AgentEvent[]): string[] {
  const types: string[] = [];
  for (const { type } of events) {
    const name = type === 'text-delta' || type === 'thinking-delta' ? `${type}*` : type;
    if (types.at(-1) !== name || !name.endsWith('*')) types.push(name);
  }
  return types;
}

const answer = (thought: string, words: string): MessagesServerTurn => ({
  content: [{ type: 'thinking', thinking: thought, signature: 'sig' }, { type: 'text', text: words }],
});
// The events of `answer`: message_start, thinking (start, 3 deltas, signature, stop), ping, text
// (start, 3 deltas, stop), ... With `after: 11` the stream breaks after 3 thinking and 2 text deltas.
const broken = (thought: string, words: string) => ({ fault: 'stream-error', errorType: 'overloaded_error', after: 11, turn: answer(thought, words) }) as const;
const dropped = (thought: string, words: string) => ({ fault: 'drop-connection', after: 11, turn: answer(thought, words) }) as const;

describe('a turn retried after a mid-stream failure', () => {
  it('announces each retry between the failed attempt and the new one, and a host ends with the final answer only', async () => {
    server = await startMessagesServer({
      responses: [
        broken('First thoughts that will be lost.', 'A first answer, never finished.'),
        dropped('Second thoughts, lost as well.', 'A second answer, cut off too.'),
        answer('Tides follow the moon.', 'Low tide is at six.'),
      ],
    });
    const agent = createAgent({ streamRetryBackoff: false, model: modelFor(server.url), maxStreamRetries: 2 });
    const { events, result } = await collect(agent.run('When is low tide?'));

    expect(result.status).toBe('completed');
    expect(shape(events)).toEqual([
      'run-start',
      'turn-start',
      'thinking-delta*',
      'text-delta*',
      'stream-retry',
      'thinking-delta*',
      'text-delta*',
      'stream-retry',
      'thinking-delta*',
      'text-delta*',
      'context-usage',
      'turn-end',
      'run-end',
    ]);
    const retries = events.filter((event) => event.type === 'stream-retry');
    expect(retries).toMatchObject([
      { turn: 1, retry: 1, maxRetries: 2, error: { errorType: 'overloaded_error', retryable: true, status: undefined } },
      { turn: 1, retry: 2, maxRetries: 2, error: { retryable: true, status: undefined } },
    ]);
    expect(retries.every((event) => event.type === 'stream-retry' && ModelError.isInstance(event.error))).toBe(true);
    // The stream-retry event replaces the non-fatal error event that used to announce a retry.
    expect(events.filter((event) => event.type === 'error')).toEqual([]);

    // The documented rule gives exactly the final answer; concatenating every delta would not.
    expect(hostView(events).get('main')).toMatchObject({ text: 'Low tide is at six.', thinking: 'Tides follow the moon.' });
    const naive = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    expect(naive).not.toBe('Low tide is at six.');

    // Nothing of the failed attempts reached the history.
    const final: ContentBlock[] = [
      { type: 'thinking', thinking: 'Tides follow the moon.', signature: 'sig' },
      { type: 'text', text: 'Low tide is at six.' },
    ];
    expect(agent.messages).toMatchObject([{ role: 'user' }, { role: 'assistant', content: final }]);
    expect(agent.messages).toHaveLength(2);
    const turnEnd = events.find((event) => event.type === 'turn-end');
    expect(turnEnd).toMatchObject({ turn: 1, message: { content: final } });
    expect(result.text).toBe('Low tide is at six.');
    expect(server.requests).toHaveLength(3);
  });

  it('ends with a fatal error and no stream-retry when the failure outlasts the last retry', async () => {
    server = await startMessagesServer({ responses: [broken('Lost.', 'First answer, lost.'), broken('Lost again.', 'Second answer, lost.')] });
    const agent = createAgent({ streamRetryBackoff: false, model: modelFor(server.url), maxStreamRetries: 1 });
    const { events, result } = await collect(agent.run('When is low tide?'));

    expect(result.status).toBe('error');
    expect((result.error as ModelError).errorType).toBe('overloaded_error');
    expect(shape(events)).toEqual(['run-start', 'turn-start', 'thinking-delta*', 'text-delta*', 'stream-retry', 'thinking-delta*', 'text-delta*', 'error', 'run-end']);
    expect(events.filter((event) => event.type === 'stream-retry')).toMatchObject([{ turn: 1, retry: 1, maxRetries: 1 }]);
    expect(events.find((event) => event.type === 'error')).toMatchObject({ fatal: true, error: result.error });
    expect(agent.messages).toHaveLength(1);
  });

  it('is never emitted with maxStreamRetries: 0, nor for a failure that is not retried', async () => {
    const overloaded = () => new ModelError('Overloaded.', { errorType: 'overloaded_error', retryable: true });
    const noRetries = await collect(createAgent({ streamRetryBackoff: false, model: scriptedModel([turn('Partial', { error: overloaded() })]), maxStreamRetries: 0 }).run('go'));
    expect(noRetries.result.status).toBe('error');
    expect(shape(noRetries.events)).toEqual(['run-start', 'turn-start', 'text-delta*', 'error', 'run-end']);

    const refused = new ModelError('Bad request.', { status: 400, errorType: 'invalid_request_error' });
    const notRetryable = await collect(createAgent({ streamRetryBackoff: false, model: scriptedModel([turn('Partial', { error: refused })]) }).run('go'));
    expect(notRetryable.result.status).toBe('error');
    expect(shape(notRetryable.events)).toEqual(['run-start', 'turn-start', 'text-delta*', 'error', 'run-end']);
  });

  it('numbers the turn it retries and reaches listeners too', async () => {
    const echo = defineTool({ name: 'echo', description: 'Echoes.', inputSchema: z.object({ text: z.string() }), readOnly: true, execute: ({ input }) => input.text });
    const overloaded = new ModelError('Overloaded.', { errorType: 'overloaded_error', retryable: true });
    const model = scriptedModel([turn('Checking.', toolCall('echo', { text: 'x' })), turn('Half an answ', { error: overloaded }), turn(thinking('Now.'), 'The whole answer.')], { chunkSize: 4 });
    const agent = createAgent({ streamRetryBackoff: false, model, tools: [echo] });
    const heard: AgentEvent[] = [];
    agent.on('stream-retry', (event) => heard.push(event));
    const { events, result } = await collect(agent.run('go'));

    expect(result.status).toBe('completed');
    const retries = events.filter((event) => event.type === 'stream-retry');
    expect(retries).toMatchObject([{ turn: 2, retry: 1, maxRetries: 2, error: overloaded }]);
    expect(heard).toEqual(retries);
    // The rule drops only the retried turn's text: the first turn's stays.
    expect(hostView(events).get('main')).toEqual(expect.objectContaining({ text: 'Checking.The whole answer.', thinking: 'Now.' }));
    // Turn 2 failed after its first delta; turn 2 again is the script's third item.
    expect(events.filter((event) => event.type === 'turn-start').map((event) => event.turn)).toEqual([1, 2]);
  });

  it("is forwarded from a subagent to the parent's run with its agentId, and voids only that agent's text", async () => {
    const overloaded = new ModelError('Overloaded.', { errorType: 'overloaded_error', retryable: true });
    const child = scriptedModel([turn('The child starts', { error: overloaded }), 'The child found it.'], { chunkSize: 8 });
    const parent = scriptedModel([turn('Asking a helper.', toolCall('Agent', { description: 'look', prompt: 'Find it', subagent_type: 'explore' }, 'p_agent')), 'Parent done.']);
    const agent = createAgent({ streamRetryBackoff: false, model: parent, agents: { explore: { ...BUILTIN_AGENTS.explore, model: child } } });
    const { events, result } = await collect(agent.run('go'));

    expect(result.status).toBe('completed');
    const retries = events.filter((event) => event.type === 'stream-retry');
    expect(retries).toHaveLength(1);
    const [retry] = retries;
    expect(retry).toMatchObject({ turn: 1, retry: 1, parentToolUseId: 'p_agent', sessionId: agent.sessionId });
    expect(retry!.agentId).toEqual(expect.any(String));
    const childEvents = events.filter((event) => event.agentId === retry!.agentId);
    expect(shape(childEvents)).toEqual(['subagent-start', 'run-start', 'turn-start', 'text-delta*', 'stream-retry', 'text-delta*', 'context-usage', 'turn-end', 'run-end', 'subagent-end']);
    const views = hostView(events);
    expect(views.get(retry!.agentId!)).toMatchObject({ text: 'The child found it.' });
    expect(views.get('main')).toMatchObject({ text: 'Asking a helper.Parent done.' });
    expect((agent.messages[2]!.content as Array<{ content: unknown }>)[0]!.content).toBe('The child found it.');
  });
});
