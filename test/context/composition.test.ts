import { afterEach, describe, expect, it } from 'vitest';
import {
  buildCompactedHistory,
  buildSummaryRequest,
  clearStaleToolResults,
  createContextTracker,
  extractHandoffSummary,
  findCompactionCut,
  memorySpillStore,
  shouldCompact,
  spillHandle,
  spillToolResult,
  SESSION_STATE_HEADING,
  type CompactionState,
} from '../../src/context/index.js';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import type { Message, TextBlock, ToolResultBlock, ToolUseBlock } from '../../src/model/messages.js';
import type { Model, ModelRequest, ModelResponse, ToolDefinition } from '../../src/model/model.js';
import { startMessagesServer, type MessagesRequestInfo, type MessagesServer } from '../../src/testing/messages-server/index.js';

let server: MessagesServer | undefined;
afterEach(() => server?.close());

async function call(model: Model, request: ModelRequest): Promise<ModelResponse> {
  for await (const event of model.stream(request)) if (event.type === 'response') return event.response;
  throw new Error('no response');
}

/** The fake model: a tool call most turns, an answer every fifth, a summary when asked for one. */
function respond({ body, number }: MessagesRequestInfo) {
  const last = body.messages[body.messages.length - 1]!;
  const lastText = typeof last.content === 'string' ? last.content : last.content.map((block) => (block.type === 'text' ? (block as TextBlock).text : '')).join('\n');
  if (lastText.includes('is about to be replaced by a summary')) {
    return { content: [{ type: 'text' as const, text: `<summary>\n## Goal\nProcess every file (request ${number}).\n## Next step\nRead the next file.\n</summary>` }] };
  }
  if (number % 5 === 0) return { content: [{ type: 'text' as const, text: `Checkpoint ${number}.` }] };
  return { content: [{ type: 'tool_use' as const, id: `toolu_${number}`, name: 'Read', input: { path: `file-${number}.txt` } }] };
}

describe('the context pieces composed as the loop will wire them', () => {
  it('a long tool-heavy session through the real SDK never exceeds the window, keeps the state, and reads mostly from cache', async () => {
    const window = 30_000;
    let clock = 0;
    server = await startMessagesServer({ promptCaching: { now: () => clock }, contextWindow: window });
    for (let index = 0; index < 400; index++) server.enqueue(respond);
    const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const system: TextBlock[] = [{ type: 'text', text: `You process files.\n${'Be thorough. '.repeat(400)}` }];
    const tools: ToolDefinition[] = [{ name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }];
    const state: CompactionState = { permissionMode: 'plan', todos: [{ content: 'Process the files', status: 'in_progress', activeForm: 'Processing the files' }] };
    const tracker = createContextTracker({ window });
    const spills = memorySpillStore();
    let messages: Message[] = [{ role: 'user', content: 'Process every file.' }];
    let compactions = 0;
    let clearings = 0;
    let read = 0;
    let input = 0;
    for (let turn = 0; turn < 200; turn++) {
      clock += 10_000;
      let usage = tracker.measure({ system, tools, messages });
      if (usage.fraction > 0.6) {
        const cleared = clearStaleToolResults(messages, { keepRecentTurns: 3, clearAtLeastChars: 40_000, spilledHandle: (id) => (spills.load(spillHandle(id)) ? spillHandle(id) : undefined) });
        if (cleared.cleared.length > 0) {
          messages = cleared.messages;
          clearings++;
          usage = tracker.measure({ system, tools, messages });
        }
      }
      if (shouldCompact(usage, { outputReserve: 4_000, threshold: 0.8 })) {
        const cut = findCompactionCut(messages, { keepTokens: 3_000, estimate: tracker.messageTokens })!;
        const summaryResponse = await call(model, buildSummaryRequest({ system, tools, messages, cut }));
        const summary = extractHandoffSummary(summaryResponse.message.content.map((block) => (block as TextBlock).text ?? '').join(''))!;
        messages = buildCompactedHistory({ messages, cut, summary, state }).messages;
        expect((messages[0]!.content as TextBlock[])[1]!.text).toContain(`${SESSION_STATE_HEADING}\n\nPermission mode: plan.`);
        compactions++;
      }
      const request = { system, tools, messages };
      const response = await call(model, request);
      tracker.observeUsage(request, response.usage, response.message);
      read += response.usage.cacheReadInputTokens;
      input += response.usage.cacheReadInputTokens + response.usage.cacheCreationInputTokens + response.usage.inputTokens;
      messages.push(response.message);
      const calls = response.message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
      if (calls.length === 0) {
        messages.push({ role: 'user', content: 'Go on.' });
        continue;
      }
      const results = calls.map((toolUse, index) => {
        // Every seventh file is huge: it is spilled; the rest are a few KB.
        const size = (turn + index) % 7 === 0 ? 80_000 : 3_000;
        const raw: ToolResultBlock = { type: 'tool_result', tool_use_id: toolUse.id, content: `contents of ${JSON.stringify(toolUse.input)}\n${'lorem ipsum '.repeat(size / 12)}` };
        const { result, spilled } = spillToolResult(raw, { toolName: toolUse.name, maxChars: 20_000 });
        if (spilled) spills.save(spilled);
        return result;
      });
      messages.push({ role: 'user', content: results });
    }
    // Every request was accepted: a refused one would have thrown.
    expect(server.errors).toEqual([]);
    expect(compactions).toBeGreaterThan(0);
    expect(clearings).toBeGreaterThan(0);
    expect(spills.size).toBeGreaterThan(0);
    const share = read / input;
    console.info(`composition: ${server.requests.length} requests, ${compactions} compactions, ${clearings} clearings, cache-read share ${(share * 100).toFixed(1)}%`);
    expect(share).toBeGreaterThan(0.85);
  });
});
