/**
 * Server-sent-event recordings for the streaming benchmark, in the Messages API's wire format:
 * a text answer in 2,000 `text_delta`s, a `tool_use` whose input arrives in 500 `input_json_delta`s,
 * and a short text answer (the turn after the tool result).
 */
export const TEXT_DELTAS = 2000;
export const INPUT_DELTAS = 500;

const frame = (event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

function message(id, blocks, stopReason) {
  const events = [
    { type: 'message_start', message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 120, output_tokens: 1 } } },
  ];
  blocks.forEach((block, index) => {
    events.push({ type: 'content_block_start', index, content_block: block.start });
    if (index === 0) events.push({ type: 'ping' });
    for (const delta of block.deltas) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 2000 } });
  events.push({ type: 'message_stop' });
  return events.map(frame).join('');
}

const words = ['the ', 'tide ', 'pools ', 'hold ', 'small ', 'crabs, ', 'anemones ', 'and ', 'sea ', 'stars; '];

export function recordings() {
  const textDeltas = Array.from({ length: TEXT_DELTAS }, (_, index) => ({ type: 'text_delta', text: words[index % words.length] }));
  const content = Array.from({ length: INPUT_DELTAS * 2 }, (_, index) => words[index % words.length]).join('');
  const json = JSON.stringify({ path: 'notes/tide-pools.md', content });
  const size = Math.ceil(json.length / INPUT_DELTAS);
  const inputDeltas = Array.from({ length: INPUT_DELTAS }, (_, index) => ({ type: 'input_json_delta', partial_json: json.slice(index * size, (index + 1) * size) }));
  return {
    text: message('msg_bench_text', [{ start: { type: 'text', text: '' }, deltas: textDeltas }], 'end_turn'),
    toolCall: message(
      'msg_bench_tool',
      [
        { start: { type: 'text', text: '' }, deltas: [{ type: 'text_delta', text: 'Writing the notes.' }] },
        { start: { type: 'tool_use', id: 'toolu_bench_1', name: 'write_notes', input: {} }, deltas: inputDeltas },
      ],
      'tool_use',
    ),
    short: message('msg_bench_short', [{ start: { type: 'text', text: '' }, deltas: [{ type: 'text_delta', text: 'Done.' }] }], 'end_turn'),
    inputJson: json,
  };
}
