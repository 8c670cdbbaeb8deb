import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, DEFAULT_CONTINUATION, defineTool, ModelError, SUMMARY_HEADING, type ContentBlock, type Message, type ModelRequest, type TextBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptItem } from 'agent-harness/testing';

// A "prompt is too long" refusal compacts everything it can (nothing of the old history is kept)
// and tries the turn again. The user's latest prompt, which the turn answers, stays verbatim
// after the summary: a paraphrase of the user's request is not the request.

const SUMMARY = '<summary>\n## Goal\nAnswer the user.\n</summary>';
const tooLong = () => new ModelError('prompt is too long: 210000 tokens > 200000 maximum', { status: 400, errorType: 'invalid_request_error' });
const read = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}: the deadline is Friday` });
const write = defineTool({ name: 'Write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: () => 'written' });

const blocksOf = (message: Message): ContentBlock[] => (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content);
const textsOf = (message: Message) => blocksOf(message).flatMap((block) => (block.type === 'text' ? [(block as TextBlock).text] : []));
const asksForSummary = (request: { messages: readonly Message[] }) => request.messages.some((message) => textsOf(message).some((text) => text.includes('is about to be replaced by a summary')));

/** Plays `script` for the turns and writes SUMMARY whenever a summary is asked for. */
function modelWithSummaries(script: ScriptItem[]) {
  const items = [...script];
  return scriptedModel(Array.from({ length: script.length + 4 }, () => (request: ModelRequest) => (asksForSummary(request) ? turn(SUMMARY) : toTurn(items.shift()!))));
}
const toTurn = (item: ScriptItem) => (typeof item === 'string' ? turn(item) : (item as ReturnType<typeof turn>));

/** The messages of the requests after the first reactive compaction: the summary request and the retried turn (as sent). */
function afterCompaction(model: ReturnType<typeof scriptedModel>) {
  const index = model.requests.findIndex((recorded) => asksForSummary(recorded));
  expect(index).toBeGreaterThan(0);
  return { summary: model.requests[index]!, retried: model.requests[index + 1]! };
}

describe('a reactive compaction', () => {
  it('keeps the prompt the turn answers verbatim after the summary, and leaves it out of the summary request', async () => {
    const PROMPT = 'PROMPT-42: when exactly is the deadline? Answer with the weekday only.';
    const model = modelWithSummaries(['Hello.', turn('', { error: tooLong() }), 'Friday.']);
    const agent = createAgent({ model, maxStreamRetries: 0 });
    await agent.run('Hi.').result;
    const result = await agent.run(PROMPT).result;
    expect(result.status).toBe('completed');
    const { summary, retried } = afterCompaction(model);
    expect(summary.messages.some((message) => textsOf(message).includes(PROMPT))).toBe(false);
    expect(retried.messages).toHaveLength(1);
    const opening = textsOf(retried.messages[0]!);
    expect(opening[0]!.startsWith(SUMMARY_HEADING)).toBe(true);
    expect(opening.at(-1)).toBe(PROMPT);
    expect(textsOf(agent.messages[0]!).at(-1)).toBe(PROMPT);
  });

  it('mid-run (the turn answers tool results), restates the run’s prompt verbatim after the summary', async () => {
    const PROMPT = 'PROMPT-7: read notes.md and tell me the deadline, quoting the file.';
    const model = modelWithSummaries([turn(toolCall('Read', { path: 'notes.md' })), turn('', { error: tooLong() }), 'Friday, says notes.md.']);
    const agent = createAgent({ model, tools: [read], maxStreamRetries: 0 });
    const result = await agent.run(PROMPT).result;
    expect(result.status).toBe('completed');
    const { retried } = afterCompaction(model);
    const opening = blocksOf(retried.messages[0]!);
    const texts = textsOf(retried.messages[0]!);
    expect(texts[0]!.startsWith(SUMMARY_HEADING)).toBe(true);
    // The prompt comes after the summary, as its own block, exactly as sent.
    const at = opening.findIndex((block) => block.type === 'text' && (block as TextBlock).text === PROMPT);
    expect(at).toBeGreaterThan(0);
    expect(retried.messages.flatMap(blocksOf).filter((block) => block.type === 'tool_result' || block.type === 'tool_use')).toEqual([]);
  });

  it('takes the prompt that superseded a pending approval, not the refused call’s result', async () => {
    const PROMPT = 'PROMPT-9: forget the file, just tell me the deadline.';
    const model = modelWithSummaries([turn(toolCall('Write', { path: 'out.md' }, 'toolu_write')), turn('', { error: tooLong() }), 'Friday.']);
    const agent = createAgent({ model, tools: [write], maxStreamRetries: 0 });
    expect((await agent.run('Write out.md.').result).status).toBe('awaiting-approval');
    const result = await agent.run(PROMPT).result;
    expect(result.status).toBe('completed');
    const { retried } = afterCompaction(model);
    expect(textsOf(retried.messages[0]!)).toContain(PROMPT);
  });

  it('does not take a reminder queued on tool results for the prompt', async () => {
    const PROMPT = 'PROMPT-11: read notes.md.';
    const model = modelWithSummaries([turn(toolCall('Read', { path: 'notes.md' })), turn('', { error: tooLong() }), 'Done.']);
    const agent = createAgent({ model, tools: [read], maxStreamRetries: 0 });
    // The host switches the mode while the call runs: the reminder joins the call's result.
    agent.once('tool-call', () => agent.setPermissionMode('acceptEdits'));
    expect((await agent.run(PROMPT).result).status).toBe('completed');
    const { retried } = afterCompaction(model);
    expect(textsOf(retried.messages[0]!)).toContain(PROMPT);
  });

  it('keeps the prompt through a second reactive compaction', async () => {
    const PROMPT = 'PROMPT-13: read notes.md twice.';
    const model = modelWithSummaries([turn('', { error: tooLong() }), turn(toolCall('Read', { path: 'notes.md' })), turn('', { error: tooLong() }), 'Done.']);
    const agent = createAgent({ model, tools: [read], maxStreamRetries: 0 });
    expect((await agent.run(PROMPT).result).status).toBe('completed');
    const last = model.requests.at(-1)!;
    expect(textsOf(last.messages[0]!)).toContain(PROMPT);
    expect(model.requests.filter((recorded) => asksForSummary(recorded))).toHaveLength(2);
  });

  it('summarizes a prompt too big to keep verbatim (one that alone reaches the compaction threshold) with the rest', async () => {
    const PROMPT = `PROMPT-15: ${'a very long pasted document. '.repeat(400)}`;
    const model = modelWithSummaries(['Hello.', turn('', { error: tooLong() }), 'Done.']);
    const agent = createAgent({ model, maxStreamRetries: 0, context: { window: 4_000, compaction: { auto: false, outputReserve: 0, threshold: 0.5 } } });
    await agent.run('Hi.').result;
    expect((await agent.run(PROMPT).result).status).toBe('completed');
    const { summary, retried } = afterCompaction(model);
    expect(summary.messages.some((message) => textsOf(message).includes(PROMPT))).toBe(true);
    expect(textsOf(retried.messages[0]!)).not.toContain(PROMPT);
    expect(textsOf(retried.messages[0]!).at(-1)).toBe(DEFAULT_CONTINUATION);
  });
});
