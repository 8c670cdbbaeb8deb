import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import type { ModelStreamEvent } from '../../../src/model/model.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';

let server: MessagesServer;
beforeEach(async () => {
  server = await startMessagesServer();
});
afterEach(() => server.close());

function bigRecording(n: number): string {
  const frames = [
    `event: message_start\ndata: {"type":"message_start","message":{"id":"msg_big","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}`,
    `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
  ];
  for (let i = 0; i < n; i++) frames.push(`event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"abcdefghij"}}`);
  frames.push(
    `event: content_block_stop\ndata: {"type":"content_block_stop","index":0}`,
    `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}}`,
    `event: message_stop\ndata: {"type":"message_stop"}`,
  );
  return frames.join('\n\n') + '\n\n';
}

describe('abort during iteration', () => {
  for (const n of [3, 20_000]) {
    it(`abort after the first delta (${n} deltas) ends the stream with errorType aborted, no further deltas`, async () => {
      server.enqueue({ recording: bigRecording(n) });
      const controller = new AbortController();
      const m = anthropicModel({ model: 'm', apiKey: 'k', baseURL: server.url, maxRetries: 0 });
      let after = 0;
      let aborted = false;
      let error: unknown;
      const events: ModelStreamEvent[] = [];
      try {
        for await (const e of m.stream({ system: [], tools: [], messages: [{ role: 'user', content: 'x' }], signal: controller.signal })) {
          events.push(e);
          if (aborted) after++;
          if (e.type === 'text-delta' && !aborted) {
            aborted = true;
            controller.abort();
          }
        }
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ errorType: 'aborted' });
      expect(after).toBe(0);
    });
  }
});
