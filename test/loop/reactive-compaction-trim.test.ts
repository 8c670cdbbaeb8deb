import { describe, expect, it } from 'vitest';
import {
  CompactionError,
  createAgent,
  memorySessionStore,
  ModelError,
  SUMMARY_HEADING,
  type AgentEvent,
  type ContentBlock,
  type Message,
  type ModelRequest,
  type SessionEntry,
  type TextBlock,
} from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { z } from 'zod';
import { defineTool } from 'agent-harness';

// When even the summary request of a reactive compaction is refused as too long (every shorter
// form of it too), the oldest messages are dropped instead of the session being stuck for good.

const tooLong = () => new ModelError('prompt is too long: 210000 tokens > 200000 maximum', { status: 400, errorType: 'invalid_request_error' });
const blocksOf = (message: Message): ContentBlock[] => (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content);
const textsOf = (message: Message) => blocksOf(message).flatMap((block) => (block.type === 'text' ? [(block as TextBlock).text] : []));
const asksForSummary = (request: { messages: readonly Message[] }) => request.messages.some((message) => textsOf(message).some((text) => text.includes('is about to be replaced by a summary')));

/** Plays `script` for the turns; every summary request is refused as too long. */
function modelRefusingSummaries(script: Array<string | ReturnType<typeof turn>>) {
  const items = [...script];
  let summaryRequests = 0;
  const model = scriptedModel(
    Array.from({ length: script.length + 12 }, () => (request: ModelRequest) => {
      if (!asksForSummary(request)) {
        const item = items.shift()!;
        return typeof item === 'string' ? turn(item) : item;
      }
      summaryRequests++;
      return turn('', { error: tooLong() });
    }),
  );
  return { model, summaryRequests: () => summaryRequests };
}

/** Roles alternate from a user message; every tool_result answers a tool_use of the message before. */
function expectValidHistory(messages: readonly Message[]) {
  expect(messages[0]?.role).toBe('user');
  messages.forEach((message, index) => {
    if (index > 0) expect(message.role).not.toBe(messages[index - 1]!.role);
    for (const block of blocksOf(message)) {
      if (block.type !== 'tool_result') continue;
      const calls = blocksOf(messages[index - 1]!).filter((call) => call.type === 'tool_use').map((call) => (call as { id: string }).id);
      expect(calls).toContain((block as { tool_use_id: string }).tool_use_id);
    }
  });
}

describe('a reactive compaction that cannot write a summary', () => {
  it('drops the oldest messages, says so (compaction-end, warning, record, PostCompact), and the run goes on with a valid history that reloads the same', async () => {
    const PROMPT = 'PROMPT-3: and the third question?';
    const { model, summaryRequests } = modelRefusingSummaries(['Answer one.', 'Answer two.', turn('', { error: tooLong() }), 'Answer three.']);
    const store = memorySessionStore();
    const postCompact: unknown[] = [];
    const agent = createAgent({
      model,
      store,
      maxStreamRetries: 0,
      context: { compaction: { keepTokens: 1 } },
      hooks: { PostCompact: [{ hook: (input) => void postCompact.push(input) }] },
    });
    const events: AgentEvent[] = [];
    for (const type of ['compaction-start', 'compaction-end', 'warning', 'error'] as const) agent.on(type, (event) => events.push(event));
    for (const prompt of ['First question.', 'Second question.']) expect((await agent.run(prompt).result).status).toBe('completed');
    const result = await agent.run(PROMPT).result;
    expect(result.status).toBe('completed');
    // Every shorter form of the summary request was tried first.
    expect(summaryRequests()).toBe(3);

    const end = events.find((event) => event.type === 'compaction-end');
    expect(end).toMatchObject({ trigger: 'reactive', trimmed: true, summarizedMessages: 4 });
    expect((end as { error?: unknown }).error).toBeUndefined();
    const warning = events.find((event) => event.type === 'warning' && event.source === 'compaction');
    expect((warning as { message: string }).message).toMatch(/4 oldest message\(s\) were dropped/);
    expect(postCompact).toEqual([expect.objectContaining({ hookEventName: 'PostCompact', trigger: 'reactive', trimmed: true })]);

    // The retried turn: a note in place of the dropped messages, then the prompt, verbatim.
    const retried = model.requests.at(-1)!;
    expectValidHistory(retried.messages);
    const opening = textsOf(retried.messages[0]!);
    expect(opening[0]!.startsWith(SUMMARY_HEADING)).toBe(true);
    expect(opening[0]).toMatch(/4 earliest message\(s\) of this conversation were dropped without a summary/);
    expect(opening.at(-1)).toBe(PROMPT);
    expect(JSON.stringify(retried.messages)).not.toContain('First question.');
    expectValidHistory(agent.messages);

    const entries: SessionEntry[] = [];
    for await (const page of store.load(agent.sessionId)) entries.push(...(Array.isArray(page) ? page : [page]));
    const boundary = entries.find((entry) => entry.kind === 'checkpoint' && entry.compaction !== undefined);
    expect(boundary).toMatchObject({ compaction: { trigger: 'reactive', trimmed: true, summarizedMessages: 4 } });
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([]), store, resume: agent.sessionId });
    await resumed.ready;
    expect(resumed.messages).toEqual(agent.messages);
  });

  it('mid-run, keeps each kept tool result with its call and restates the run\'s prompt after the note', async () => {
    const PROMPT = 'PROMPT-5: read both files and compare them.';
    const read = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}` });
    const { model } = modelRefusingSummaries([
      'Answer one.',
      turn(toolCall('Read', { path: 'a.md' })),
      turn(toolCall('Read', { path: 'b.md' })),
      turn('', { error: tooLong() }),
      'They differ.',
    ]);
    const agent = createAgent({ model, tools: [read], maxStreamRetries: 0, context: { compaction: { keepTokens: 1 } } });
    expect((await agent.run('First question.').result).status).toBe('completed');
    expect((await agent.run(PROMPT).result).status).toBe('completed');
    const retried = model.requests.at(-1)!;
    expectValidHistory(retried.messages);
    const texts = retried.messages.flatMap(textsOf);
    expect(texts).toContain(PROMPT);
    expect(JSON.stringify(retried.messages)).not.toContain('First question.');
    // The latest call and its result are kept together.
    expect(JSON.stringify(retried.messages)).toContain('contents of b.md');
    expectValidHistory(agent.messages);
  });

  it('keeps the user\'s latest message even when it alone is past the compaction threshold (no summary could carry it)', async () => {
    const PROMPT = `PROMPT-6: ${'a long brief to follow exactly. '.repeat(400)}`;
    const read = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}` });
    const { model } = modelRefusingSummaries(['Answer one.', turn(toolCall('Read', { path: 'a.md' })), turn('', { error: tooLong() }), 'Done as briefed.']);
    const agent = createAgent({ model, tools: [read], maxStreamRetries: 0, context: { window: 20_000, clearing: false, compaction: { keepTokens: 1, outputReserve: 0, threshold: 0.1 } } });
    const ends: unknown[] = [];
    agent.on('compaction-end', (event) => ends.push(event));
    expect((await agent.run('First question.').result).status).toBe('completed');
    expect((await agent.run(PROMPT).result).status).toBe('completed');
    expect(ends).toContainEqual(expect.objectContaining({ trigger: 'reactive', trimmed: true }));
    const retried = model.requests.at(-1)!;
    expectValidHistory(retried.messages);
    expect(retried.messages.flatMap(textsOf)).toContain(PROMPT);
  });

  it('fails with a CompactionError that says the prompt is too long (promptTooLong) when even the latest message cannot fit, and changes nothing', async () => {
    const HUGE = `PROMPT-4: ${'a very long paste '.repeat(2_000)}`;
    const { model } = modelRefusingSummaries(['Answer one.', turn('', { error: tooLong() })]);
    const agent = createAgent({ model, maxStreamRetries: 0, context: { window: 1_500, clearing: false, compaction: { keepTokens: 1, outputReserve: 0 } } });
    const events: AgentEvent[] = [];
    for (const type of ['compaction-start', 'compaction-end', 'warning', 'error'] as const) agent.on(type, (event) => events.push(event));
    expect((await agent.run('First question.').result).status).toBe('completed');
    const before = structuredClone(agent.messages);
    const result = await agent.run(HUGE).result;
    expect(result.status).toBe('error');
    const error = result.error as CompactionError;
    expect(CompactionError.isInstance(error)).toBe(true);
    expect(error.promptTooLong).toBe(true);
    expect(error.message).toMatch(/too long for the context window.*Send a shorter message/);
    // Nothing was dropped: the history is the one before, with the prompt.
    expect(agent.messages.slice(0, before.length)).toEqual(before);
    expect(textsOf(agent.messages.at(-1)!)).toEqual([HUGE]);
    const ends = events.filter((event) => event.type === 'compaction-end');
    expect(ends.every((event) => (event as { trimmed?: true }).trimmed === undefined)).toBe(true);
    // The automatic compaction before the turn failed as before (not trimmed, not promptTooLong): only a reactive one trims.
    const auto = ends.find((event) => (event as { trigger: string }).trigger === 'auto') as { error?: CompactionError } | undefined;
    expect(auto?.error && CompactionError.isInstance(auto.error)).toBe(true);
    expect(auto?.error?.promptTooLong).toBe(false);
  });
});
