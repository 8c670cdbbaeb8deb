// @openai/agents: an Agent with a tool() and a custom Model object (getResponse / getStreamedResponse).
// `run(agent, input, { maxTurns })` uses getResponse (non-streaming). Tracing is switched off: it
// would create spans and try to export them to OpenAI every turn, which no other library here does.
import { z } from 'zod';
import { Agent, Usage, run, setTracingDisabled, tool } from '@openai/agents';

export const library = '@openai/agents';

setTracingDisabled(true);

let nextId = 1;

/**
 * A Model that makes `toolTurns` turns of `callsPerTurn` function calls, then answers with text.
 * Like the agent-harness fake, it reads the turn from the input length and keeps no state.
 */
function toolTurnsModel({ toolName, toolTurns, callsPerTurn, onCall }) {
  const usage = { requests: 1, inputTokens: 10, outputTokens: 10, totalTokens: 20 };
  const respond = (output) => ({ usage: new Usage(usage), output });
  return {
    async getResponse(request) {
      if (onCall) onCall(performance.now());
      // Input of one run: user message, then per tool turn `callsPerTurn` calls and as many outputs.
      const done = (request.input.length - 1) / (2 * callsPerTurn);
      if (done < toolTurns) {
        const output = [];
        for (let index = 0; index < callsPerTurn; index++) {
          output.push({ type: 'function_call', callId: `call_bench_${nextId++}`, name: toolName, arguments: '{}', status: 'completed' });
        }
        return respond(output);
      }
      return respond([{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.' }] }]);
    },
    async *getStreamedResponse() {
      throw new Error('the benchmark does not stream');
    },
  };
}

/** What a host holds after a run: the RunResult (its `history` continues the conversation). */
export function prepare({ toolTurns, callsPerTurn = 1, waitMs = 0, onCall }) {
  const work = tool({
    name: 'work',
    description: 'Returns ok.',
    parameters: z.object({}),
    execute: waitMs > 0 ? () => new Promise((resolve) => setTimeout(resolve, waitMs, 'ok')) : () => 'ok',
  });
  const model = toolTurnsModel({ toolName: work.name, toolTurns, callsPerTurn, onCall });
  const agent = new Agent({ name: 'bench', instructions: '', model, tools: [work] });
  return async function runOnce(prompt) {
    const result = await run(agent, prompt, { maxTurns: toolTurns + 1 });
    const calls = result.newItems.filter((item) => item.type === 'tool_call_output_item').length;
    if (result.finalOutput !== 'Done.' || calls !== toolTurns * callsPerTurn) {
      throw new Error(`@openai/agents run ended with ${JSON.stringify(result.finalOutput)} after ${calls} tool outputs`);
    }
    return result;
  };
}

/** The conversation a host would keep to continue it (input items plus everything generated). */
export const history = (held) => held.history;
