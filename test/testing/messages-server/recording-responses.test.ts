import { describe, expect, it } from 'vitest';
import { recordingResponses } from '../../../src/testing/messages-server/recording-responses.js';

const sse = (events: Array<{ type: string }>) => events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
const messageStart = (id: string) => ({
  type: 'message_start',
  message: { id, type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } },
});
const text = (value: string) => [
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: value } },
  { type: 'content_block_stop', index: 0 },
];
const finish = [{ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }, { type: 'message_stop' }];
const overloadedFrame = 'event: error\ndata: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"}}\n\n';

describe('recordingResponses', () => {
  it('splits on message_start too: a response cut off by an error frame, then its retry, is two responses', () => {
    const responses = recordingResponses(sse([messageStart('msg_1'), ...text('partial')]) + overloadedFrame + sse([messageStart('msg_2'), ...text('full'), ...finish]));
    expect(responses).toHaveLength(2);
    expect(responses[0]!.events.map((event) => event.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'error',
    ]);
    expect(responses[0]!.frames.at(-1)).toBe(overloadedFrame); // kept verbatim, with the response it cut off
    expect(responses[1]!.events[0]).toMatchObject({ message: { id: 'msg_2' } });
    expect(responses[1]!.events.at(-1)!.type).toBe('message_stop');
  });

  it('two complete responses, as JSON lines or SSE, are two responses', () => {
    const events = [messageStart('a'), ...text('1'), ...finish, messageStart('b'), ...text('2'), ...finish];
    expect(recordingResponses(events.map((event) => JSON.stringify(event)).join('\n'))).toHaveLength(2);
    expect(recordingResponses(sse(events))).toHaveLength(2);
  });

  it('frames after the last message_stop that start no new response stay with it', () => {
    const responses = recordingResponses(sse([messageStart('a'), ...text('1'), ...finish, { type: 'ping' }]));
    expect(responses).toHaveLength(1);
    expect(responses[0]!.events.at(-1)!.type).toBe('ping');
  });
});
