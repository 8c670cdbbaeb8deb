import { describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, type ContentBlock } from 'agent-harness';
import { scriptedModel, validateMessagesRequest } from 'agent-harness/testing';

// A prompt is checked before anything is recorded: what the API would refuse never joins the
// history (a refused block there would fail every later request of the session).
function refused(prompt: unknown): ConfigurationError {
  const model = scriptedModel(['Hello.']);
  const agent = createAgent({ model });
  let error: unknown;
  try {
    agent.run(prompt as ContentBlock[]);
  } catch (caught) {
    error = caught;
  }
  expect(ConfigurationError.isInstance(error)).toBe(true);
  expect(agent.messages).toEqual([]);
  expect(model.requests).toHaveLength(0);
  return error as ConfigurationError;
}

describe('agent.run(prompt) checks the prompt', () => {
  it.each([
    ['blank text only', [{ type: 'text', text: '   ' }], /non-empty prompt/],
    ['an empty array', [], /non-empty prompt/],
    ['a tool_result', [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'hi' }], /prompt\[0\] is a tool_result block.*resolveApproval/],
    ['a tool_use', [{ type: 'text', text: 'Hi' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }], /prompt\[1\] is a tool_use block/],
    ['thinking', [{ type: 'thinking', thinking: 'hm', signature: 's' }], /thinking block/],
    ['null in the array', [null], /prompt\[0\] must be a content block object.*got null/],
    ['a bare string in the array', ['Hello'], /got string/],
    ['a block without a type', [{ text: 'Hello' }], /no block type/],
    ['text that is not a string', [{ type: 'text', text: 42 }], /prompt\[0\]\.text must be a string, got number/],
    ['an image without a source', [{ type: 'image' }], /source must be an object/],
    ['a number', 42, /got number/],
  ])('refuses %s, naming it', (_name, prompt, message) => {
    expect(refused(prompt).message).toMatch(message);
  });

  it('a second run with a blank prompt does not leave the request ending on the assistant', async () => {
    const model = scriptedModel(['First.', 'Second.']);
    const agent = createAgent({ model });
    await agent.run('Hi.').result;
    expect(() => agent.run([{ type: 'text', text: '\n' }])).toThrow(ConfigurationError);
    expect(agent.messages).toHaveLength(2);
  });

  it('takes text, image and document blocks, blank text beside them dropped, and sends a valid request', async () => {
    const model = scriptedModel(['Seen.']);
    const agent = createAgent({ model });
    const result = await agent.run([
      { type: 'text', text: ' ' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Notes.' } },
      { type: 'text', text: 'What is this?' },
    ]).result;
    expect(result.status).toBe('completed');
    const sent = model.requests[0]!.request.messages;
    expect(validateMessagesRequest(sent)).toBeUndefined();
    expect((sent[0]!.content as ContentBlock[]).map((block) => block.type)).toEqual(['image', 'document', 'text']);
  });
});
