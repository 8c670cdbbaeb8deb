import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/errors/model-error.js';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import { INCOMPLETE_TOOL_INPUT_KEY } from '../../../src/model/incomplete-tool-input.js';
import type { ModelResponse, ModelStreamEvent } from '../../../src/model/model.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';
import { fixturePath, hasFixtures } from '../../fixtures-dir.js';

// Real recordings (read-only), beside the repository or at $AGENT_HARNESS_FIXTURES.
const sseRoot = hasFixtures ? fixturePath('anthropic-sse') : '';
const fixtures = (hasFixtures ? ['vercel-ai', 'official-sdk', 'llm-anthropic'] : []).flatMap((folder) =>
  readdirSync(path.join(sseRoot, folder))
    .sort()
    .map((file) => ({ name: `${folder}/${file}`, text: readFileSync(path.join(sseRoot, folder, file), 'utf8') })),
);

/** Recordings where the SDK's `MessageStream` (non-beta) drops data that ours keeps, or differs on purpose. */
const knownDifferences: Record<string, string> = {
  'official-sdk/incomplete_partial_json_response.txt': 'SDK partial-parses cut-off tool JSON; we mark it incomplete',
  'vercel-ai/anthropic-mcp.1.chunks.txt': 'SDK ignores input_json_delta on mcp_tool_use; we parse it',
  'vercel-ai/anthropic-compaction.1.chunks.txt': 'SDK ignores compaction_delta; we merge it into the block',
};

const request = { system: [], tools: [], messages: [{ role: 'user' as const, content: 'Hello' }] };

let server: MessagesServer;
let client: Anthropic;
beforeAll(async () => {
  server = await startMessagesServer({ validate: false });
  client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterAll(() => server.close());

type OurTurn = { events: ModelStreamEvent[]; response: ModelResponse };

/** How many responses a recording holds (some hold the consecutive responses of a multi-step exchange). */
const responseCount = (text: string) => text.match(/"type": ?"message_start"/g)?.length ?? 0;

async function runOurs(recording: string): Promise<OurTurn> {
  return (await runOursAll(recording))[0]!;
}

async function runOursAll(recording: string): Promise<OurTurn[]> {
  server.enqueue({ recording });
  const turns: OurTurn[] = [];
  for (let index = 0; index < responseCount(recording); index++) turns.push(await runOurTurn());
  return turns;
}

async function runOurTurn(): Promise<OurTurn> {
  const model = anthropicModel({ model: 'claude-test', client });
  const events: ModelStreamEvent[] = [];
  for await (const event of model.stream(request)) events.push(event);
  const last = events.at(-1);
  if (last?.type !== 'response') throw new Error('no response event');
  return { events, response: last.response };
}

async function runSdk(recording: string): Promise<Anthropic.Message> {
  return (await runSdkAll(recording))[0]!;
}

async function runSdkAll(recording: string): Promise<Anthropic.Message[]> {
  server.enqueue({ recording });
  const messages: Anthropic.Message[] = [];
  for (let index = 0; index < responseCount(recording); index++) {
    messages.push(await client.messages.stream({ model: 'claude-test', max_tokens: 1024, messages: request.messages }).finalMessage());
  }
  return messages;
}

/** Our Usage mapping applied to the SDK's final usage. */
function usageOf(message: Anthropic.Message) {
  return {
    inputTokens: message.usage.input_tokens ?? 0,
    outputTokens: message.usage.output_tokens ?? 0,
    cacheReadInputTokens: message.usage.cache_read_input_tokens ?? 0,
    cacheCreationInputTokens: message.usage.cache_creation_input_tokens ?? 0,
  };
}

/** The text and thinking deltas streamed for each block concatenate to the assembled block. */
function expectDeltasToAddUp({ events, response }: OurTurn): void {
  const streamed = new Map<number, string>();
  for (const event of events) {
    if (event.type === 'text-delta') streamed.set(event.index, (streamed.get(event.index) ?? '') + event.text);
    if (event.type === 'thinking-delta') streamed.set(event.index, (streamed.get(event.index) ?? '') + event.thinking);
  }
  for (const [index, text] of streamed) {
    const block = response.message.content[index] as { text?: string; thinking?: string };
    expect(block.text ?? block.thinking).toBe(text);
  }
}

describe.skipIf(!hasFixtures)('differential: our assembly equals the SDK finalMessage() on every real recording', () => {
  it('finds the fixtures', () => {
    expect(fixtures.length).toBeGreaterThan(60);
  });

  for (const fixture of fixtures) {
    it(fixture.name, async () => {
      const oursAll = await runOursAll(fixture.text);
      const sdkAll = await runSdkAll(fixture.text);
      expect(oursAll.length).toBeGreaterThan(0);
      expect(oursAll).toHaveLength(sdkAll.length);
      oursAll.forEach((ours, index) => {
        const sdk = sdkAll[index]!;
        // JSON round trip: the SDK's tool_use blocks keep a non-enumerable buffer and getters.
        const sdkContent = JSON.parse(JSON.stringify(sdk.content)) as unknown[];
        expect(ours.response.stopReason).toBe(sdk.stop_reason);
        expect(ours.response.usage).toEqual(usageOf(sdk));
        expect(ours.response.id).toBe(sdk.id);
        expect(ours.response.model).toBe(sdk.model);
        expect(ours.events.filter((event) => event.type === 'response')).toHaveLength(1);
        expectDeltasToAddUp(ours);
        if (knownDifferences[fixture.name] && index === 0) {
          expect(ours.response.message.content).not.toEqual(sdkContent);
        } else {
          expect(ours.response.message.content).toEqual(sdkContent);
        }
      });
      expect(server.pendingResponses).toBe(0);
    });
  }
});

describe.skipIf(!hasFixtures)('a real mid-stream error frame (error-bodies-from-issues.json) after real events', () => {
  it('ours: deltas, then a retryable ModelError overloaded_error; the SDK fails too', async () => {
    const errorFixture = fixturePath('anthropic-errors', 'error-bodies-from-issues.json');
    const wireFrame = (
      JSON.parse(readFileSync(errorFixture, 'utf8')) as { errors: Array<{ kind: string; body: string }> }
    ).errors.find((entry) => entry.kind === 'sse_wire')!.body;
    // The first four frames of a real text stream, then the error frame verbatim (padding included).
    const basic = fixtures.find((fixture) => fixture.name === 'official-sdk/basic_response.txt')!.text;
    const recording = `${basic.split(/\n\n/).slice(0, 4).join('\n\n')}\n\n${wireFrame}\n\n`;
    server.enqueue({ recording });
    const model = anthropicModel({ model: 'claude-test', client });
    const events: ModelStreamEvent[] = [];
    const failure = await (async () => {
      for await (const event of model.stream(request)) events.push(event);
    })().catch((error: unknown) => error);
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    expect(ModelError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ errorType: 'overloaded_error', retryable: true, status: undefined });
    server.enqueue({ recording });
    await expect(client.messages.stream({ model: 'claude-test', max_tokens: 10, messages: request.messages }).finalMessage()).rejects.toThrow(/Overloaded/);
  });
});

describe.skipIf(!hasFixtures)('recordings where we differ from the SDK on purpose', () => {
  const text = (name: string) => fixtures.find((fixture) => fixture.name === name)!.text;

  it('keeps a cut-off tool call with its raw JSON under the incomplete marker', async () => {
    const { response } = await runOurs(text('official-sdk/incomplete_partial_json_response.txt'));
    expect(response.stopReason).toBe('max_tokens');
    const tool = response.message.content[1] as { type: string; input: Record<string, unknown> };
    expect(tool.type).toBe('tool_use');
    expect(Object.keys(tool.input)).toEqual([INCOMPLETE_TOOL_INPUT_KEY]);
    expect(tool.input[INCOMPLETE_TOOL_INPUT_KEY]).toMatch(/^\{"filename": "taxes.txt", "lines_of_text": \[/);
  });

  it('assembles mcp_tool_use input, which the SDK leaves as {}', async () => {
    const ours = await runOurs(text('vercel-ai/anthropic-mcp.1.chunks.txt'));
    const sdk = await runSdk(text('vercel-ai/anthropic-mcp.1.chunks.txt'));
    const mcp = ours.response.message.content[0] as { type: string; input: unknown };
    expect(mcp.type).toBe('mcp_tool_use');
    expect(mcp.input).not.toEqual({});
    expect((sdk.content[0] as unknown as { input: unknown }).input).toEqual({});
    // Everything except that input agrees.
    const withoutInput = (blocks: unknown[]) => blocks.map((block, index) => (index === 0 ? { ...(block as object), input: null } : block));
    expect(withoutInput(ours.response.message.content)).toEqual(withoutInput(JSON.parse(JSON.stringify(sdk.content))));
  });

  it('keeps the compaction summary, which the SDK leaves as null', async () => {
    const ours = await runOurs(text('vercel-ai/anthropic-compaction.1.chunks.txt'));
    const compaction = ours.response.message.content.find((block) => block.type === 'compaction') as { content: unknown };
    expect(typeof compaction.content).toBe('string');
    expect(compaction.content).toMatch(/^## Summary of Conversation/);
  });
});
