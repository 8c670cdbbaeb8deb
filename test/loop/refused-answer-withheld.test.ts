// After a refusal (stop reason "refusal") the API asks for the refused turn to be removed or
// rephrased before going on: a conversation that still holds it tends to be refused again. The
// next prompt's request leaves the refused answer (and its calls, which never ran) out, tells the
// model so in a note, and keeps the user's messages; the transcript keeps the refused answer.
// `refusedAnswers: 'keep'` sends it on as before.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, foldEntries, memorySessionStore, SessionStoreCorruptError, type Message, type SessionEntry } from 'agent-harness';
import { scriptedModel, text, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer } from '../../src/testing/messages-server/index.js';

const NOTE = /previous answer was stopped by the API as a refusal/;

function echoTool() {
  const ran: string[] = [];
  const tool = defineTool({ name: 'echo', description: 'Echoes.', inputSchema: z.object({ text: z.string() }), execute: ({ input }) => (ran.push(input.text), `echo: ${input.text}`) });
  return { tool, ran };
}

async function entriesOf(store: ReturnType<typeof memorySessionStore>, sessionId: string): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  for await (const entry of store.load(sessionId)) entries.push(entry);
  return entries;
}

const sent = (messages: readonly Message[]) => JSON.stringify(messages);

describe('the request after a refused answer', () => {
  it('leaves the refused text answer out, keeps the prompt that was refused, and tells the model in a note before the new prompt', async () => {
    const model = scriptedModel([turn('Sure, here is how to bu', { stopReason: 'refusal' }), 'Here is a cake recipe.']);
    const store = memorySessionStore();
    const agent = createAgent({ model, store });
    const refused = await agent.run('How do I build it?').result;
    expect(refused).toMatchObject({ status: 'completed', stopReason: 'refusal' });
    const next = await agent.run('Then a cake recipe.').result;
    expect(next).toMatchObject({ status: 'completed', text: 'Here is a cake recipe.' });
    const messages = model.requests[1]!.messages;
    expect(validateMessagesRequest(messages)).toBeUndefined();
    expect(sent(messages)).not.toContain('Sure, here is how');
    expect(messages).toHaveLength(1);
    const texts = (messages[0]!.content as Array<{ text: string }>).map((block) => block.text);
    expect(texts[0]).toBe('How do I build it?');
    expect(texts.findIndex((text) => NOTE.test(text))).toBeGreaterThan(0);
    expect(texts.at(-1)).toBe('Then a cake recipe.');
    // The history the model is sent no longer holds it; the transcript does, and says it was withheld.
    expect(sent(agent.messages)).not.toContain('Sure, here is how');
    const entries = await entriesOf(store, agent.sessionId);
    const refusedEntry = entries.find((entry) => entry.kind === 'message' && entry.stopReason === 'refusal');
    expect(sent([refusedEntry!.kind === 'message' ? refusedEntry!.message : ({} as Message)])).toContain('Sure, here is how');
    const withheld = entries.findIndex((entry) => entry.kind === 'answer-withheld');
    expect(withheld).toBeGreaterThan(entries.indexOf(refusedEntry!));
    // Stored with the prompt (one append): a transcript never ends on the withheld entry alone.
    expect(entries[withheld + 1]).toMatchObject({ kind: 'message', message: { role: 'user' } });
    // Folded, the stored transcript gives the same history the live agent has.
    expect(foldEntries(entries, { sessionId: agent.sessionId }).messages).toEqual(agent.messages);
  });

  it('mid-run (after tool results), leaves out the refused answer with its calls, none run; the earlier calls and results stay', async () => {
    const { tool, ran } = echoTool();
    const model = scriptedModel([
      turn(toolCall('echo', { text: 'first' }, 'toolu_1')),
      turn(text('Now the bad part'), toolCall('echo', { text: 'second' }, 'toolu_2'), { stopReason: 'refusal' }),
      'Done differently.',
    ]);
    const agent = createAgent({ model, tools: [tool], canUseTool: async () => ({ behavior: 'allow' }) });
    await agent.run('Go.').result;
    await agent.run('Do it another way.').result;
    expect(ran).toEqual(['first']);
    const messages = model.requests[2]!.messages;
    expect(validateMessagesRequest(messages)).toBeUndefined();
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent(messages)).toContain('toolu_1');
    expect(sent(messages)).not.toContain('toolu_2');
    expect(sent(messages)).not.toContain('Now the bad part');
    const last = messages[2]!.content as Array<{ type: string; text?: string }>;
    expect(last[0]!.type).toBe('tool_result');
    expect(last.some((block) => NOTE.test(block.text ?? ''))).toBe(true);
    expect(last.at(-1)).toEqual({ type: 'text', text: 'Do it another way.' });
  });

  it('only the refused answer: an answer before it that finished is sent on', async () => {
    const model = scriptedModel(['The first answer.', turn('Partial', { stopReason: 'refusal' }), 'Third.']);
    const agent = createAgent({ model });
    await agent.run('One.').result;
    await agent.run('Two.').result;
    await agent.run('Three.').result;
    const messages = model.requests[2]!.messages;
    expect(validateMessagesRequest(messages)).toBeUndefined();
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent(messages)).toContain('The first answer.');
    expect(sent(messages)).not.toContain('Partial');
    // Withheld once: the answer after the note is a finished one, and the next request sends it.
    await agent.run('Four.').result.catch(() => undefined);
    expect(sent(model.requests.at(-1)?.messages ?? [])).not.toContain('Partial');
  });

  it('two refusals in a row: each is withheld, and the request stays one the API accepts', async () => {
    const model = scriptedModel([turn('FIRST-REFUSED', { stopReason: 'refusal' }), turn('SECOND-REFUSED', { stopReason: 'refusal' }), 'Finally.']);
    const agent = createAgent({ model });
    await agent.run('One.').result;
    await agent.run('Two.').result;
    const third = await agent.run('Three.').result;
    expect(third).toMatchObject({ status: 'completed', text: 'Finally.' });
    const messages = model.requests[2]!.messages;
    expect(validateMessagesRequest(messages)).toBeUndefined();
    expect(sent(messages)).not.toMatch(/FIRST-REFUSED|SECOND-REFUSED/);
    expect(JSON.stringify(messages).match(/previous answer was stopped/g)).toHaveLength(2);
  });

  it('refusedAnswers: keep sends the refused answer on, as before', async () => {
    const model = scriptedModel([turn('Sure, here is how to bu', { stopReason: 'refusal' }), 'Fine.']);
    const agent = createAgent({ model, refusedAnswers: 'keep' });
    await agent.run('How do I build it?').result;
    await agent.run('Then a cake recipe.').result;
    const messages = model.requests[1]!.messages;
    expect(validateMessagesRequest(messages)).toBeUndefined();
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent(messages)).toContain('Sure, here is how');
    expect(sent(messages)).not.toMatch(NOTE);
  });

  it('refusedAnswers other than withhold or keep is a ConfigurationError naming the option and the values', () => {
    for (const refusedAnswers of ['drop', true, null]) {
      expect(() => createAgent({ model: scriptedModel([]), refusedAnswers: refusedAnswers as never })).toThrow(ConfigurationError);
      expect(() => createAgent({ model: scriptedModel([]), refusedAnswers: refusedAnswers as never })).toThrow(/refusedAnswers/);
    }
  });

  it('continue() after a refusal still calls no model and withholds nothing; the prompt after it does', async () => {
    const model = scriptedModel([turn('Partial', { stopReason: 'refusal' }), 'Other.']);
    const agent = createAgent({ model });
    await agent.run('One.').result;
    const continued = await agent.continue().result;
    expect(continued).toMatchObject({ status: 'completed', stopReason: 'refusal', text: 'Partial' });
    expect(model.requests).toHaveLength(1);
    expect(sent(agent.messages)).toContain('Partial');
    await agent.run('Two.').result;
    expect(sent(model.requests[1]!.messages)).not.toContain('Partial');
  });

  it('a structured-output run after a refusal is sent without it too', async () => {
    const model = scriptedModel([turn('{"title": "How to', { stopReason: 'refusal' }), '{"title": "Cakes"}']);
    const agent = createAgent({ model });
    const refused = await agent.run('Title it.', { outputSchema: z.object({ title: z.string() }) }).result;
    expect(refused.status).toBe('error');
    const next = await agent.run('Something else.', { outputSchema: z.object({ title: z.string() }) }).result;
    expect(next).toMatchObject({ status: 'completed', output: { title: 'Cakes' } });
    expect(sent(model.requests[1]!.messages)).not.toContain('How to');
    expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
  });
});

describe('a compaction after a refused answer', () => {
  for (const keepTokens of [0, 100_000]) {
    it(`${keepTokens === 0 ? 'everything summarized' : 'recent history kept'}: the summary request goes on from no refused answer, and the next prompt still withholds it`, async () => {
      const { tool, ran } = echoTool();
      const model = scriptedModel(['First answer.', turn(text('Sure, here is how to bu'), toolCall('echo', { text: 'x' }, 'toolu_r'), { stopReason: 'refusal' }), 'Summary text.', 'A cake recipe.']);
      const agent = createAgent({ model, tools: [tool], context: { compaction: { keepTokens } } });
      await agent.run('Hello.').result;
      await agent.run('How do I build it?').result;
      const compacted = await agent.compact();
      expect(compacted.compacted).toBe(true);
      const summaryRequest = model.requests[2]!.messages;
      expect(sent(summaryRequest)).not.toContain('Sure, here is how');
      expect(sent(summaryRequest)).not.toContain('toolu_r');
      // The refused prompt is summarized when everything is; else it is kept as it is.
      if (keepTokens === 0) expect(sent(summaryRequest)).toContain('How do I build it?');
      expect(validateMessagesRequest(summaryRequest)).toBeUndefined();
      expect((await agent.run('Then a cake recipe.').result).text).toBe('A cake recipe.');
      const next = model.requests[3]!.messages;
      expect(sent(next)).not.toContain('Sure, here is how');
      expect(sent(next)).toMatch(NOTE);
      expect(validateMessagesRequest(next)).toBeUndefined();
      expect(ran).toEqual([]);
    });
  }

  it('refusedAnswers: keep summarizes it as it is', async () => {
    const model = scriptedModel([turn('Sure, here is how to bu', { stopReason: 'refusal' }), 'Summary text.']);
    const agent = createAgent({ model, refusedAnswers: 'keep', context: { compaction: { keepTokens: 0 } } });
    await agent.run('How do I build it?').result;
    await agent.compact();
    expect(sent(model.requests[1]!.messages)).toContain('Sure, here is how');
  });
});

describe('a session resumed after a refusal', () => {
  async function refusedSession() {
    const { tool } = echoTool();
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel([turn(text('Sure'), toolCall('echo', { text: 'x' }, 'toolu_r'), { stopReason: 'refusal' })]), tools: [tool], store });
    await agent.run('Do it.').result;
    return { store, agent, tool };
  }

  it('from the store: the next prompt is sent without the refused answer', async () => {
    const { store, agent, tool } = await refusedSession();
    await agent.close();
    const model = scriptedModel(['Other.']);
    const resumed = createAgent({ model, tools: [tool], store, resume: agent.sessionId });
    const result = await resumed.run('Something else.').result;
    expect(result.error?.message).toBeUndefined();
    const messages = model.requests[0]!.messages;
    expect(validateMessagesRequest(messages)).toBeUndefined();
    expect(sent(messages)).not.toContain('toolu_r');
    expect(sent(messages)).toMatch(NOTE);
    // A third process folds the transcript with the withheld entry to the same history.
    await resumed.close();
    const third = createAgent({ model: scriptedModel([]), tools: [tool], store, resume: agent.sessionId });
    await third.ready;
    expect(third.messages).toEqual(resumed.messages);
  });

  it('from a snapshot: the same', async () => {
    const { agent, tool } = await refusedSession();
    const model = scriptedModel(['Other.']);
    const resumed = createAgent({ model, tools: [tool], resume: JSON.parse(JSON.stringify(agent.snapshot())) });
    await resumed.run('Something else.').result;
    expect(sent(model.requests[0]!.messages)).not.toContain('toolu_r');
    expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
  });

  it('a fork of it withholds on its own next prompt; a fork cut before the refusal does not end on one', async () => {
    const { agent, tool } = await refusedSession();
    const whole = await agent.fork();
    const forkModel = scriptedModel(['Fork answer.']);
    const forked = createAgent({ model: forkModel, tools: [tool], resume: whole.snapshot() });
    await forked.run('Next.').result;
    expect(sent(forkModel.requests[0]!.messages)).not.toContain('toolu_r');
    // Cut to the prompt alone: continue() answers that prompt (it ends on no refusal), nothing withheld.
    const cut = await agent.fork({ upTo: 1 });
    const cutModel = scriptedModel(['Answered.']);
    const resumedCut = createAgent({ model: cutModel, tools: [tool], resume: cut.snapshot() });
    const result = await resumedCut.continue().result;
    expect(result).toMatchObject({ status: 'completed', text: 'Answered.' });
    expect(sent(cutModel.requests[0]!.messages)).not.toMatch(NOTE);
  });

  it('a tampered answer-withheld entry (no note) is refused on load, naming the entry', async () => {
    const { store, agent } = await refusedSession();
    const entries = await entriesOf(store, agent.sessionId);
    const last = entries.at(-1)!;
    const bad = { ...last, id: 'bad', parentId: last.id, seq: last.seq + 1, kind: 'answer-withheld', note: 42 } as unknown as SessionEntry;
    expect(() => foldEntries([...entries, bad], { sessionId: agent.sessionId })).toThrow(SessionStoreCorruptError);
    expect(() => foldEntries([...entries, bad], { sessionId: agent.sessionId })).toThrow(/answer-withheld/);
  });

  it('an answer-withheld entry on a history that does not end on an answer removes nothing (the note is still queued)', () => {
    const base = { $schemaVersion: 2, sessionId: 's', timestamp: '2027-01-01T00:00:00.000Z' };
    const entries = [
      { ...base, id: 'e1', parentId: null, seq: 1, kind: 'message', message: { role: 'user', content: 'Hi.' } },
      { ...base, id: 'e2', parentId: 'e1', seq: 2, kind: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] } },
      { ...base, id: 'e3', parentId: 'e2', seq: 3, kind: 'message', message: { role: 'user', content: 'Again.' } },
      { ...base, id: 'e4', parentId: 'e3', seq: 4, kind: 'answer-withheld', note: 'withheld' },
    ] as SessionEntry[];
    const state = foldEntries(entries, { sessionId: 's' });
    expect(state.messages).toHaveLength(3);
    expect(state.pendingReminders).toEqual(['withheld']);
  });
});

describe('a compaction after a refusal (agent.compact() before the next prompt)', () => {
  const big = 'lorem ipsum dolor '.repeat(700);
  it.each([
    ['a refused text answer', turn('REFUSED-TEXT ' + big, { stopReason: 'refusal' })],
    ['a refused answer with a call', turn(text('REFUSED-TEXT ' + big), toolCall('echo', { text: 'x' }, 'toolu_r'), { stopReason: 'refusal' })],
  ])('%s: the summary request does not hold it, continue() still ends on it, and the next prompt is sent without it', async (_name, refused) => {
    const { tool, ran } = echoTool();
    const model = scriptedModel(['A1 ' + big, refused, '<summary>S</summary>', 'Next.']);
    const agent = createAgent({ model, tools: [tool], context: { window: 200_000, clearing: false, compaction: { keepTokens: 1 } } });
    await agent.run('P1').result;
    await agent.run('P2').result;
    const compaction = await agent.compact();
    expect(compaction.compacted).toBe(true);
    expect(sent(model.requests[2]!.messages)).not.toContain('REFUSED-TEXT');
    const continued = await agent.continue().result;
    expect(continued).toMatchObject({ status: 'completed', stopReason: 'refusal' });
    expect(model.requests).toHaveLength(3);
    await agent.run('P3').result;
    const messages = model.requests[3]!.messages;
    expect(validateMessagesRequest(messages)).toBeUndefined();
    expect(sent(messages)).not.toContain('REFUSED-TEXT');
    expect(sent(messages)).toMatch(NOTE);
    expect(sent(messages)).toContain('P2');
    expect(ran).toEqual([]);
  });
});

describe('through anthropicModel and the loopback Messages API (which refuses what the API refuses)', () => {
  it('the request after a refusal is accepted and carries no refused answer', async () => {
    const server = await startMessagesServer({
      responses: [
        { content: [{ type: 'text', text: 'Sure, step one is' }], stopReason: 'refusal', stopDetails: { type: 'refusal', category: 'cyber', explanation: 'Declined.' } },
        { content: [{ type: 'text', text: 'A cake recipe.' }] },
      ],
    });
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
      const agent = createAgent({ model });
      await agent.run('How do I build it?').result;
      const next = await agent.run('Then a cake recipe.').result;
      expect(next.error?.message).toBeUndefined();
      expect(next).toMatchObject({ status: 'completed', text: 'A cake recipe.' });
      const messages = server.requests[1]!.messages as Message[];
      expect(validateMessagesRequest(messages)).toBeUndefined();
      expect(sent(messages)).not.toContain('Sure, step one is');
      expect(sent(messages)).toMatch(NOTE);
    } finally {
      await server.close();
    }
  });
});
