/**
 * A minimal Model (src/model/model.ts) for benchmarks: answers instantly, records nothing
 * (unlike scriptedModel, whose `requests` array and per-call message copies would grow with the
 * run and be measured as if they were the loop's cost).
 *
 * `decide(request)` returns the content blocks of the next assistant message. `onCall`, when
 * given, is called with `performance.now()` at the start of every model call, so the time
 * between two calls is one whole loop turn (model + permissions + tools + history append).
 */
export function fakeModel({ decide, onCall, modelId = 'bench-fake' }) {
  const usage = { inputTokens: 10, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
  return {
    specificationVersion: 'v1',
    provider: 'bench',
    modelId,
    async *stream(request) {
      if (onCall) onCall(performance.now());
      const content = decide(request);
      const hasTools = content.some((block) => block.type === 'tool_use');
      yield {
        type: 'response',
        response: { message: { role: 'assistant', content }, stopReason: hasTools ? 'tool_use' : 'end_turn', usage: { ...usage } },
      };
    },
  };
}

let nextId = 1;

/** `count` tool_use blocks calling `name` with an empty input, each with a fresh id. */
export function toolUses(name, count) {
  const blocks = [];
  for (let index = 0; index < count; index++) blocks.push({ type: 'tool_use', id: `toolu_bench_${nextId++}`, name, input: {} });
  return blocks;
}

/**
 * A model that makes `toolTurns` turns of `callsPerTurn` calls to `toolName`, then ends with a
 * text turn. It counts the assistant messages of the current run from the history, so one
 * instance can serve many agents (it keeps no state of its own).
 */
export function toolTurnsModel({ toolName, toolTurns, callsPerTurn = 1, onCall }) {
  return fakeModel({
    onCall,
    decide(request) {
      // History of one run: user prompt, then (assistant, user) per tool turn.
      const done = (request.messages.length - 1) / 2;
      return done < toolTurns ? toolUses(toolName, callsPerTurn) : [{ type: 'text', text: 'Done.' }];
    },
  });
}
