// After an answer the model stops as a refusal (stop reason "refusal") the run ends: no structured
// output retry, no Stop hook continuation, and no call of the refused answer runs later either,
// whether the session goes on in this process or from a transcript / snapshot in another.
import { describe, expect, it } from 'vitest';
import { createAgent, defineTool, memorySessionStore, ModelError, StructuredOutputError, type HookInput, type Message, type SessionEntry } from 'agent-harness';
import { z } from 'zod';
import { scriptedModel, text, toolCall, turn } from 'agent-harness/testing';
import { collect } from '../helpers.js';
import { dyingStore } from '../session/dying-store.js';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer } from '../../src/testing/messages-server/index.js';

/** A streamed answer that the API stops as a refusal after some JSON text (a streaming classifier cutting in). */
const refusedMidStream = [
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '{"title": ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '"How to' } },
  { type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: { type: 'refusal', category: 'cyber', explanation: 'Declined.' } }, usage: { output_tokens: 5 } },
  { type: 'message_stop' },
]
  .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
  .join('');

const Answer = z.object({ title: z.string() });

function countingTool() {
  const ran: string[] = [];
  const tool = defineTool({
    name: 'echo',
    description: 'Echoes its text.',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ input }) => {
      ran.push(input.text);
      return `echo: ${input.text}`;
    },
  });
  return { tool, ran };
}

/** Every tool_use of the messages has its tool_result in the next message. */
function unansweredCalls(messages: readonly Message[]): string[] {
  const open: string[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) return;
    const next = messages[index + 1];
    const answered = new Set<string>(Array.isArray(next?.content) ? next.content.filter((block) => block.type === 'tool_result').map((block) => (block as { tool_use_id: string }).tool_use_id) : []);
    for (const block of message.content) if (block.type === 'tool_use' && !answered.has(String(block.id))) open.push(String(block.id));
  });
  return open;
}

describe('structured output after a refusal', () => {
  it.each([
    ['text mode, a refused text answer', 'text' as const, [turn('{"title": "Half', { stopReason: 'refusal' })]],
    ['tool mode, a refused text answer', 'tool' as const, [turn('I cannot help with that.', { stopReason: 'refusal' })]],
    ['tool mode, a refused StructuredOutput call', 'tool' as const, [turn(toolCall('StructuredOutput', { title: 'Complete' }, 'toolu_out'), { stopReason: 'refusal' })]],
    ['tool mode, a refused answer with nothing kept', 'tool' as const, [turn({ stopReason: 'refusal' })]],
  ])('%s: the model is not asked again; status error with a StructuredOutputError that says it was a refusal', async (_name, outputMode, script) => {
    const { tool, ran } = countingTool();
    const model = scriptedModel([...script, turn(toolCall('StructuredOutput', { title: 'Asked again' })), '{"title": "Asked again"}']);
    const agent = createAgent({ model, tools: [tool] });
    const { events, result } = await collect(agent.run('Title it.', { outputSchema: Answer, outputMode, outputRetries: 3 }));
    expect(model.requests).toHaveLength(1);
    expect(ran).toEqual([]);
    expect(result).toMatchObject({ status: 'error', stopReason: 'refusal', outputAttempts: 1 });
    expect(result.output).toBeUndefined();
    expect(StructuredOutputError.isInstance(result.error)).toBe(true);
    const error = result.error as StructuredOutputError;
    expect(error.refused).toBe(true);
    expect(error.attempts).toBe(1);
    expect(error.message).toContain('"refusal"');
    expect(error.message).not.toContain('outputRetries');
    expect(events.filter((event) => event.type === 'error')).toHaveLength(1);
    expect(unansweredCalls(agent.messages)).toEqual([]);
  });

  it('through anthropicModel (native structured output): refused mid-stream after partial JSON, the part is streamed, kept as text, never taken, not asked again', async () => {
    const server = await startMessagesServer({ responses: [{ recording: refusedMidStream }, { content: [{ type: 'text', text: '{"title": "Again"}' }] }] });
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
      const agent = createAgent({ model, hooks: { Stop: [{ hook: (input) => (input.stopReason === 'refusal' ? { continue: true } : {}) }] } });
      const { events, result } = await collect(agent.run('Title it.', { outputSchema: Answer }));
      expect(server.requests).toHaveLength(1);
      expect(events.filter((event) => event.type === 'text-delta').map((event) => (event as { text: string }).text).join('')).toBe('{"title": "How to');
      expect(result).toMatchObject({ status: 'error', stopReason: 'refusal', text: '{"title": "How to' });
      expect(result.output).toBeUndefined();
      expect((result.error as StructuredOutputError).refused).toBe(true);
      // The next run's request is accepted (the refused text is kept as a whole text block).
      const next = await agent.run('Something else.', { outputSchema: Answer }).result;
      expect(next.error?.message).toBeUndefined();
      expect(next).toMatchObject({ status: "completed", output: { title: "Again" } });
    } finally {
      await server.close();
    }
  });

  it('through anthropicModel: the API\'s stop_details reach RunResult.stopDetails and the warning', async () => {
    const server = await startMessagesServer({ responses: [{ recording: refusedMidStream }] });
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
      const { events, result } = await collect(createAgent({ model }).run('Title it.'));
      expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal', stopDetails: { type: 'refusal', category: 'cyber', explanation: 'Declined.' } });
      const warning = events.find((event) => event.type === 'warning') as { message: string };
      expect(warning.message).toContain('"Declined."');
      expect(warning.message).toContain('cyber');
    } finally {
      await server.close();
    }
  });

  it('the loopback server sends a scripted turn\'s stopDetails as stop_details, and anthropicModel reads them', async () => {
    const stopDetails = { type: 'refusal', category: 'cyber', explanation: 'Declined by the loopback server.' };
    const server = await startMessagesServer({ responses: [{ content: [{ type: 'text', text: 'I cannot' }], stopReason: 'refusal', stopDetails }] });
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
      const result = await createAgent({ model }).run('Do it.').result;
      expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal', stopDetails, text: 'I cannot' });
    } finally {
      await server.close();
    }
  });

  it('scriptedModel reports stopDetails too (hosts test their refusal messages with it)', async () => {
    const stopDetails = { type: 'refusal', category: null, explanation: 'Declined for testing.' };
    const result = await createAgent({ model: scriptedModel([turn('I cannot', { stopReason: 'refusal', stopDetails })]) }).run('Do it.').result;
    expect(result).toMatchObject({ stopReason: 'refusal', stopDetails });
  });

  it('a refusal after an invalid answer: no more retries, attempts counts both answers', async () => {
    const model = scriptedModel(['not json', turn('{"ti', { stopReason: 'refusal' }), '{"title": "Third"}']);
    const result = await createAgent({ model }).run('Title it.', { outputSchema: Answer, outputMode: 'text', outputRetries: 3 }).result;
    expect(model.requests).toHaveLength(2);
    expect(result).toMatchObject({ status: 'error', stopReason: 'refusal', outputAttempts: 2 });
    expect((result.error as StructuredOutputError).refused).toBe(true);
  });

  it('a cut-off answer that is not a refusal (max_tokens) is still asked for again', async () => {
    const model = scriptedModel([turn('{"title": "Ha', { stopReason: 'max_tokens' }), '{"title": "Whole"}']);
    const result = await createAgent({ model }).run('Title it.', { outputSchema: Answer, outputMode: 'text' }).result;
    expect(result).toMatchObject({ status: 'completed', output: { title: 'Whole' }, outputAttempts: 2 });
    expect(StructuredOutputError.isInstance(result.error)).toBe(false);
  });
});

describe('a Stop hook after a refusal', () => {
  it('is told the stop reason; its "continue" does not call the model again, and a warning says why', async () => {
    const seen: Array<HookInput<'Stop'>> = [];
    const model = scriptedModel([turn('I cannot help with that.', { stopReason: 'refusal' }), 'Asked again.']);
    const agent = createAgent({ model, hooks: { Stop: [{ hook: (input) => (seen.push(input), { continue: true, reason: 'Keep going.' }) }] } });
    const { events, result } = await collect(agent.run('Do it.'));
    expect(model.requests).toHaveLength(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ hookEventName: 'Stop', stopReason: 'refusal', stopHookActive: false });
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal', text: 'I cannot help with that.' });
    const warnings = events.filter((event) => event.type === 'warning') as Array<{ type: 'warning'; source: string; message: string }>;
    expect(warnings.map((warning) => warning.source).sort()).toEqual(['hooks', 'model']);
    expect(warnings.find((warning) => warning.source === 'hooks')!.message).toMatch(/Stop hook.*continue.*refusal/s);
    // Nothing was appended for the model after the refused answer.
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant' });
  });

  it('after a refused answer with tool calls too', async () => {
    const { tool, ran } = countingTool();
    const model = scriptedModel([turn(text('Sure'), toolCall('echo', { text: 'a' }), { stopReason: 'refusal' }), 'Asked again.']);
    const agent = createAgent({ model, tools: [tool], hooks: { Stop: [{ hook: () => ({ continue: true }) }] } });
    const result = await agent.run('Do it.').result;
    expect(model.requests).toHaveLength(1);
    expect(ran).toEqual([]);
    expect(result.stopReason).toBe('refusal');
  });

  it('after a finished answer it still sends the model back, and is told the stop reason', async () => {
    const seen: Array<string | null | undefined> = [];
    let once = false;
    const model = scriptedModel(['First.', 'Second.']);
    const agent = createAgent({ model, hooks: { Stop: [{ hook: (input) => (seen.push(input.stopReason), once ? {} : ((once = true), { continue: true })) }] } });
    const result = await agent.run('Do it.').result;
    expect(model.requests).toHaveLength(2);
    expect(seen).toEqual(['end_turn', 'end_turn']);
    expect(result.text).toBe('Second.');
  });
});

describe('a refused answer left with open calls (a snapshot taken mid-answer, a transcript whose answers were never stored)', () => {
  /** The state a host's listener captured right after the refused answer was kept, before its calls were answered. */
  async function snapshotMidRefusal() {
    const { tool } = countingTool();
    const first = createAgent({ model: scriptedModel([turn(text('Sure, let me'), toolCall('echo', { text: 'a' }, 'toolu_a'), toolCall('echo', { text: 'b' }, 'toolu_b'), { stopReason: 'refusal' })]), tools: [tool] });
    let left: unknown;
    first.on('tool-call', () => {
      left ??= JSON.parse(JSON.stringify(first.snapshot()));
    });
    await first.run('Do it.').result;
    expect((left as { openBatch?: unknown }).openBatch).toBeDefined();
    return left as never;
  }

  it('continue() answers them as not run, calls no model, and completes on the refusal', async () => {
    const left = await snapshotMidRefusal();
    const { tool, ran } = countingTool();
    const model = scriptedModel(['Asked again.']);
    // The host would allow the calls: only the refusal keeps them from running.
    const resumed = createAgent({ model, tools: [tool], resume: left, canUseTool: async () => ({ behavior: 'allow' }) });
    const { events, result } = await collect(resumed.continue());
    expect(ran).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal', text: 'Sure, let me' });
    expect(events.some((event) => event.type === 'permission-request')).toBe(false);
    expect(unansweredCalls(resumed.messages)).toEqual([]);
    expect(JSON.stringify(resumed.messages.at(-1))).toContain('refusal');
  });

  it('a new prompt leaves the refused answer and its calls out of the request, none run, and goes on with the prompt', async () => {
    const left = await snapshotMidRefusal();
    const { tool, ran } = countingTool();
    const model = scriptedModel(['Here is something else.']);
    const resumed = createAgent({ model, tools: [tool], resume: left, canUseTool: async () => ({ behavior: 'allow' }) });
    const result = await resumed.run('Something else then.').result;
    expect(ran).toEqual([]);
    expect(result).toMatchObject({ status: 'completed', text: 'Here is something else.' });
    expect(model.requests).toHaveLength(1);
    const sent = model.requests[0]!.messages;
    expect(sent.map((message) => message.role)).toEqual(['user']);
    expect(JSON.stringify(sent)).not.toContain('Sure, let me');
    expect(JSON.stringify(sent)).not.toContain('toolu_a');
    expect(JSON.stringify(sent)).toContain('withheld');
  });

  it('with refusedAnswers: keep, a new prompt answers them as not run first, then goes on with the refused answer still sent', async () => {
    const left = await snapshotMidRefusal();
    const { tool, ran } = countingTool();
    const model = scriptedModel(['Here is something else.']);
    const resumed = createAgent({ model, tools: [tool], resume: left, refusedAnswers: 'keep', canUseTool: async () => ({ behavior: 'allow' }) });
    const result = await resumed.run('Something else then.').result;
    expect(ran).toEqual([]);
    expect(result).toMatchObject({ status: 'completed', text: 'Here is something else.' });
    expect(model.requests).toHaveLength(1);
    expect(unansweredCalls(model.requests[0]!.messages)).toEqual([]);
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('stopped its answer as a refusal');
    expect(JSON.stringify(model.requests[0]!.messages)).not.toContain('withheld');
  });

  it('continue() with an outputSchema: a StructuredOutput call of the refused answer is not taken as the answer', async () => {
    const first = createAgent({ model: scriptedModel([turn(toolCall('StructuredOutput', { title: 'Refused' }, 'toolu_out'), { stopReason: 'refusal' })]), tools: [countingTool().tool] });
    let left: unknown;
    first.on('tool-call', () => {
      left ??= JSON.parse(JSON.stringify(first.snapshot()));
    });
    await first.run('Title it.', { outputSchema: Answer }).result;
    const model = scriptedModel([turn(toolCall('StructuredOutput', { title: 'Asked again' }))]);
    const resumed = createAgent({ model, tools: [countingTool().tool], resume: left as never });
    const result = await resumed.continue({ outputSchema: Answer }).result;
    expect(model.requests).toHaveLength(0);
    expect(result.output).toBeUndefined();
    expect(result).toMatchObject({ status: 'error', stopReason: 'refusal' });
    expect((result.error as StructuredOutputError).refused).toBe(true);
  });

  it('a transcript built by hand (the refused answer stored, its answers not): resumed from the store, continue() runs nothing', async () => {
    const store = memorySessionStore();
    const sessionId = 'refused-open-calls';
    const base = (seq: number) => ({ $schemaVersion: 2, id: `e${seq}`, parentId: seq === 1 ? null : `e${seq - 1}`, seq, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), sessionId });
    const entries: SessionEntry[] = [
      { ...base(1), kind: 'run-start', runId: 'run-1' },
      { ...base(2), kind: 'message', message: { role: 'user', content: [{ type: 'text', text: 'Do it.' }] } },
      {
        ...base(3),
        kind: 'message',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Sure, let me' }, { type: 'tool_use', id: 'toolu_a', name: 'echo', input: { text: 'a' } }] },
        messageId: 'msg_1',
        usage: { inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
        stopReason: 'refusal',
      },
    ];
    await store.append(sessionId, entries, { expectedRevision: 0 });
    const { tool, ran } = countingTool();
    const model = scriptedModel(['Asked again.']);
    const resumed = createAgent({ model, tools: [tool], store, resume: sessionId, canUseTool: async () => ({ behavior: 'allow' }) });
    await resumed.ready;
    expect(resumed.pendingApprovals).toEqual([]);
    const result = await resumed.continue().result;
    expect(ran).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal' });
    expect(unansweredCalls(resumed.messages)).toEqual([]);
    await resumed.close();
    // Read back once more: the answers are stored, nothing is left open.
    const again = createAgent({ model: scriptedModel([]), tools: [tool], store, resume: sessionId });
    await again.ready;
    expect(unansweredCalls(again.messages)).toEqual([]);
    await again.close();
  });

  it('a transcript that also needs a repair on load (a blank text block earlier): the repaired open batch stays refused', async () => {
    const store = memorySessionStore();
    const sessionId = 'refused-open-calls-repaired';
    const base = (seq: number) => ({ $schemaVersion: 2, id: `e${seq}`, parentId: seq === 1 ? null : `e${seq - 1}`, seq, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), sessionId });
    const entries: SessionEntry[] = [
      // A blank text block (which the API refuses) beside the prompt: loading repairs it.
      { ...base(1), kind: 'message', message: { role: 'user', content: [{ type: 'text', text: 'Do it.' }, { type: 'text', text: '   ' }] } },
      {
        ...base(2),
        kind: 'message',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a', name: 'echo', input: { text: 'a' } }] },
        stopReason: 'refusal',
      },
    ];
    await store.append(sessionId, entries, { expectedRevision: 0 });
    const { tool, ran } = countingTool();
    const model = scriptedModel(['Asked again.']);
    const resumed = createAgent({ model, tools: [tool], store, resume: sessionId, canUseTool: async () => ({ behavior: 'allow' }) });
    await resumed.ready;
    // Repaired on load: the blank block is gone.
    expect(resumed.messages[0]!.content).toEqual([{ type: 'text', text: 'Do it.' }]);
    expect(resumed.snapshot().openBatch?.refused).toBe(true);
    const result = await resumed.continue().result;
    expect(ran).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal' });
    expect(unansweredCalls(resumed.messages)).toEqual([]);
    await resumed.close();
  });

  it('a snapshot whose open batch says refused with anything but true is refused, naming the field', async () => {
    const left = (await snapshotMidRefusal()) as { openBatch: { refused: unknown } };
    left.openBatch.refused = 'yes';
    expect(() => createAgent({ model: scriptedModel([]), resume: left as never })).toThrow(/openBatch\.refused/);
  });

  it('continue() after a run that ended on a refused answer with calls (its answers stored): no model call on top of the refusal', async () => {
    const store = memorySessionStore();
    const { tool, ran } = countingTool();
    const model = scriptedModel([turn(text('Sure'), toolCall('echo', { text: 'a' }), { stopReason: 'refusal' }), 'Asked again.']);
    const agent = createAgent({ model, tools: [tool], store });
    await agent.run('Do it.').result;
    await agent.close();
    const resumed = createAgent({ model, tools: [tool], store, resume: agent.sessionId, canUseTool: async () => ({ behavior: 'allow' }) });
    const result = await resumed.continue().result;
    expect(model.requests).toHaveLength(1);
    expect(ran).toEqual([]);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal' });
    await resumed.close();
  });

  it('a prompt after the refusal clears it: continue() after that prompt failed calls the model', async () => {
    const { tool } = countingTool();
    const model = scriptedModel([
      turn(text('Sure'), toolCall('echo', { text: 'a' }), { stopReason: 'refusal' }),
      turn('', { error: new ModelError('overloaded', { status: 529, errorType: 'overloaded_error' }) }),
      'Here is something else.',
    ]);
    const agent = createAgent({ model, tools: [tool], maxStreamRetries: 0 });
    await agent.run('Do it.').result;
    const failed = await agent.run('Something else then.').result;
    expect(failed.status).toBe('error');
    const result = await agent.continue().result;
    expect(result).toMatchObject({ status: 'completed', text: 'Here is something else.', stopReason: 'end_turn' });
  });

  it('continue() right after a refused text answer reports the refusal, without a model call', async () => {
    const model = scriptedModel([turn('I cannot', { stopReason: 'refusal' }), 'Asked again.']);
    const agent = createAgent({ model });
    await agent.run('Do it.').result;
    const result = await agent.continue().result;
    expect(model.requests).toHaveLength(1);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal' });
  });

  it('a snapshot with endedOnRefusal anything but true is refused, naming the field', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    const snapshot = { ...JSON.parse(JSON.stringify(agent.snapshot())), endedOnRefusal: 1 };
    expect(() => createAgent({ model: scriptedModel([]), resume: snapshot })).toThrow(/endedOnRefusal/);
  });

  it('a fresh refusal records its stop reason with the answer, so a reader knows it from the transcript', async () => {
    const store = memorySessionStore();
    const { tool } = countingTool();
    const agent = createAgent({ model: scriptedModel([turn(text('Sure'), toolCall('echo', { text: 'a' }), { stopReason: 'refusal' })]), tools: [tool], store });
    await agent.run('Do it.').result;
    const entries: SessionEntry[] = [];
    for await (const entry of store.load(agent.sessionId)) entries.push(entry);
    const answer = entries.find((entry) => entry.kind === 'message' && entry.message.role === 'assistant');
    expect(answer).toMatchObject({ stopReason: 'refusal' });
    await agent.close();
  });
});

// Cut by entry: the refused answer is stored in one append with the run's end, so only a cut
// inside that append (a torn write) leaves the refusal stored without it.
describe('a refusal with tool calls, the process killed at every entry, resumed with continue()', () => {
  it('no call of the refused answer ever runs, and once the refusal is stored the model is not called on top of it', async () => {
    // From 2: at 1 nothing at all is stored (no session to resume).
    let cut = 2;
    let stored = 0;
    for (; cut < 40; cut++) {
      const inner = memorySessionStore();
      const dying = dyingStore(inner, cut, { unit: 'entry' });
      const { tool, ran } = countingTool();
      const first = createAgent({ model: scriptedModel([turn(text('Sure'), toolCall('echo', { text: 'a' }, 'toolu_a'), { stopReason: 'refusal' })]), tools: [tool], store: dying.store });
      await first.run('Do it.').result;
      await first.close().catch(() => undefined);
      if (dying.entries() < cut) break;
      const where = `killed at entry ${cut}`;
      const model = scriptedModel(['Asked again.']);
      const resumed = createAgent({ model, tools: [tool], store: inner, resume: first.sessionId, canUseTool: async () => ({ behavior: 'allow' }) });
      await resumed.ready;
      const refusalStored = JSON.stringify(resumed.messages).includes('toolu_a');
      const result = await resumed.continue().result;
      expect(ran, where).toEqual([]);
      expect(unansweredCalls(resumed.messages), where).toEqual([]);
      if (refusalStored) {
        stored++;
        expect(model.requests, where).toHaveLength(0);
        expect(result, where).toMatchObject({ status: 'completed', stopReason: 'refusal' });
      }
      await resumed.close();
    }
    expect(cut).toBeGreaterThan(2);
    expect(stored).toBeGreaterThanOrEqual(1);
  });
});
