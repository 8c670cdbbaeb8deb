// The Vercel AI SDK: generateText with its MockLanguageModelV3 (ai/test) answering one step at a time.
// generateText uses doGenerate (non-streaming). The mock records every call in `doGenerateCalls`;
// we empty that record on each call so it holds at most one request, like the other fakes (none).
import { z } from 'zod';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

export const library = 'ai';

let nextId = 1;

function toolTurnsModel({ toolName, toolTurns, callsPerTurn, onCall }) {
  const usage = () => ({
    inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 10, text: 10, reasoning: 0 },
  });
  const model = new MockLanguageModelV3({
    doGenerate(options) {
      model.doGenerateCalls.length = 0;
      if (onCall) onCall(performance.now());
      // Prompt of one run: user message, then (assistant, tool) per step.
      const done = (options.prompt.length - 1) / 2;
      if (done < toolTurns) {
        const content = [];
        for (let index = 0; index < callsPerTurn; index++) {
          content.push({ type: 'tool-call', toolCallId: `call_bench_${nextId++}`, toolName, input: '{}' });
        }
        return { content, finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usage(), warnings: [] };
      }
      return { content: [{ type: 'text', text: 'Done.' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage: usage(), warnings: [] };
    },
  });
  return model;
}

/** What a host holds after a run: the generateText result (`response.messages` continues it). */
export function prepare({ toolTurns, callsPerTurn = 1, waitMs = 0, onCall }) {
  const tools = {
    work: tool({
      description: 'Returns ok.',
      inputSchema: z.object({}),
      execute: waitMs > 0 ? () => new Promise((resolve) => setTimeout(resolve, waitMs, 'ok')) : () => 'ok',
    }),
  };
  const model = toolTurnsModel({ toolName: 'work', toolTurns, callsPerTurn, onCall });
  const stopWhen = stepCountIs(toolTurns + 1);
  return async function runOnce(prompt) {
    const result = await generateText({ model, tools, prompt, stopWhen });
    if (result.text !== 'Done.' || result.steps.length !== toolTurns + 1) {
      throw new Error(`ai run ended with ${JSON.stringify(result.text)} after ${result.steps.length} steps`);
    }
    return result;
  };
}

/** The conversation a host would keep to continue it (the prompt is the host's own). */
export const history = (held) => held.response.messages;
