// Property: any history the API accepts in a request with tools is, once toolBlocksAsText has
// turned its calls and results into text, accepted in a request without tools; the calls' names
// and the results' texts are all still there, and the input history is never changed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentBlock, Message } from 'agent-harness';
import { validateMessagesRequestBody } from 'agent-harness/testing';
import { toolBlocksAsText } from '../../src/loop/tool-blocks-as-text.js';

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } } as const;
const resultContent = fc.oneof(
  fc.constantFrom(''),
  word,
  // (A tool_reference needs a deferred tool in the request: the unit test covers it.)
  fc.array(fc.oneof(word.map((text) => ({ type: 'text' as const, text })), fc.constant(image)), { minLength: 1, maxLength: 3 }),
);
const exchange = fc.record({
  prompt: word,
  text: fc.option(word, { nil: undefined }),
  calls: fc.array(fc.record({ name: word, input: fc.dictionary(word, fc.oneof(word, fc.integer())), content: resultContent, isError: fc.boolean() }), { maxLength: 3 }),
  answer: word,
});

/** A valid history: per exchange a prompt, an answer that may call tools, their results, a closing answer. */
type Exchange = typeof exchange extends fc.Arbitrary<infer T> ? T : never;

function historyOf(exchanges: Exchange[]): Message[] {
  const messages: Message[] = [];
  let id = 0;
  for (const { prompt, text, calls, answer } of exchanges) {
    messages.push({ role: 'user', content: [{ type: 'text', text: prompt }] });
    if (calls.length === 0) {
      messages.push({ role: 'assistant', content: [{ type: 'text', text: answer }] });
      continue;
    }
    const ids = calls.map(() => `toolu_${++id}`);
    messages.push({ role: 'assistant', content: [...(text ? [{ type: 'text' as const, text }] : []), ...calls.map((call, index): ContentBlock => ({ type: 'tool_use', id: ids[index]!, name: call.name, input: call.input }))] });
    messages.push({ role: 'user', content: calls.map((call, index): ContentBlock => ({ type: 'tool_result', tool_use_id: ids[index]!, content: call.content as never, ...(call.isError ? { is_error: true } : {}) })) });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: answer }] });
  }
  messages.push({ role: 'user', content: [{ type: 'text', text: 'next' }] });
  return messages;
}

const tool = { name: 'any', description: 'Any.', input_schema: { type: 'object' } };
const body = (messages: readonly Message[], tools: unknown[]) => ({ model: 'claude-sonnet-4-6', max_tokens: 10, tools, messages });

describe('toolBlocksAsText (property)', () => {
  it('turns every history valid with tools into one valid without, losing no call name or result text', () => {
    fc.assert(
      fc.property(fc.array(exchange, { minLength: 1, maxLength: 4 }), (exchanges) => {
        const messages = historyOf(exchanges);
        // Only histories the API takes with tools (it refuses an error result with no content, say).
        fc.pre(validateMessagesRequestBody(body(messages, [tool])) === undefined);
        const before = JSON.stringify(messages);
        const sent = toolBlocksAsText(messages);
        expect(JSON.stringify(messages)).toBe(before);
        expect(validateMessagesRequestBody(body(sent, []))).toBeUndefined();
        const text = JSON.stringify(sent);
        for (const { calls } of exchanges) {
          for (const call of calls) {
            expect(text).toContain(`"${call.name}"`.replace(/"/g, '\\"'));
            if (typeof call.content === 'string' && call.content !== '') expect(text).toContain(call.content);
          }
        }
      }),
      { numRuns: 300, seed: 20261205 },
    );
  });
});
