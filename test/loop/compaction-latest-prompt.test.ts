import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, DEFAULT_CONTINUATION, LATEST_PROMPT_HEADING, SUMMARY_HEADING, type ContentBlock, type Message, type TextBlock } from 'agent-harness';
import { asksForSummary, contextModel } from './context-model.js';

// Whatever starts a compaction (the threshold before a turn, the host's compact(), a "prompt is
// too long" refusal), the user's latest message is still there verbatim after the summary: kept
// as the message the turn answers, or restated under LATEST_PROMPT_HEADING. A paraphrase of the
// user's request is not the request.

const SUMMARY = '<summary>\n## Goal\nRead the files.\n</summary>';
const read = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}\n${'lorem ipsum dolor '.repeat(700)}` });

const blocksOf = (message: Message): ContentBlock[] => (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content);
const textsOf = (message: Message) => blocksOf(message).flatMap((block) => (block.type === 'text' ? [(block as TextBlock).text] : []));

/** Reads `reads` files after each prompt, then answers; writes SUMMARY when asked. */
function reader(reads: number) {
  let done = 0;
  return contextModel((request, index) => {
    if (asksForSummary(request)) return [{ type: 'text', text: SUMMARY }];
    if (done < reads) {
      done++;
      return [{ type: 'tool_use', id: `toolu_${index}`, name: 'Read', input: { path: `file-${index}.md` } }];
    }
    done = 0;
    return [{ type: 'text', text: 'Done.' }];
  });
}

/** The opening message's texts: the summary, then (after the restated state) the heading and the prompt, exactly. */
function expectRestated(opening: Message, prompt: string): void {
  const texts = textsOf(opening);
  expect(texts[0]!.startsWith(SUMMARY_HEADING)).toBe(true);
  const heading = texts.indexOf(LATEST_PROMPT_HEADING);
  expect(heading).toBeGreaterThan(0);
  expect(texts[heading + 1]).toBe(prompt);
}

describe('the latest prompt through a compaction', () => {
  it('an automatic compaction mid-run (before a turn) restates the run’s prompt verbatim after the summary', async () => {
    const PROMPT = 'PROMPT-21: read the three files and tell me which one mentions owls.';
    const model = reader(3);
    // ~3,200 tokens a result: the threshold (4,000) is passed after the second read.
    const agent = createAgent({ model, tools: [read], context: { window: 20_000, clearing: false, compaction: { threshold: 0.2, outputReserve: 0, keepTokens: 500 } } });
    const ends: string[] = [];
    agent.on('compaction-end', (event) => ends.push(event.trigger));
    expect((await agent.run(PROMPT).result).status).toBe('completed');
    expect(ends[0]).toBe('auto');
    const at = model.calls.findIndex((call) => asksForSummary(call.request));
    expectRestated(model.calls[at + 1]!.messages[0]!, PROMPT);
    expect(agent.messages.some((message) => textsOf(message).includes(PROMPT))).toBe(true);
  });

  it('an automatic compaction before a run’s first turn keeps the new prompt as the message the turn answers', async () => {
    const PROMPT = 'PROMPT-22: now summarize what you read, in one line.';
    const model = reader(2);
    const agent = createAgent({ model, tools: [read], context: { window: 20_000, clearing: false, compaction: { threshold: 0.2, outputReserve: 0, keepTokens: 0, auto: false } } });
    expect((await agent.run('Read two files.').result).status).toBe('completed');
    // The history is past the threshold now: the next run compacts before its first turn.
    const resumed = createAgent({ model, tools: [read], resume: agent.snapshot(), context: { window: 20_000, clearing: false, compaction: { threshold: 0.2, outputReserve: 0, keepTokens: 0 } } });
    expect((await resumed.run(PROMPT).result).status).toBe('completed');
    const at = model.calls.findIndex((call) => asksForSummary(call.request));
    expect(at).toBeGreaterThan(0);
    const turn = model.calls[at + 1]!.messages;
    const texts = turn.flatMap(textsOf);
    expect(texts).toContain(PROMPT);
    expect(texts).not.toContain(DEFAULT_CONTINUATION);
  });

  it('agent.compact() restates the latest prompt verbatim when it is among the summarized messages', async () => {
    const PROMPT = 'PROMPT-23: read both files, then stop.';
    const model = reader(2);
    const agent = createAgent({ model, tools: [read], context: { window: 200_000, clearing: false, compaction: { keepTokens: 100 } } });
    expect((await agent.run(PROMPT).result).status).toBe('completed');
    const result = await agent.compact();
    expect(result.compacted).toBe(true);
    expectRestated(agent.messages[0]!, PROMPT);
  });
});
