// agent-harness, imported from the repo's build (dist/, run `npx tsup` at the root first).
// Its fake model is the loop benchmark's (bench/lib/fake-model.mjs): one `response` event, no record.
import { z } from '../../../node_modules/zod/index.js';
import { createAgent, defineTool } from '../../../dist/index.js';
import { toolTurnsModel } from '../../lib/fake-model.mjs';

export const library = 'agent-harness';

/** What a host holds after a run: the agent (it owns the session history) and the run result. */
export function prepare({ toolTurns, callsPerTurn = 1, waitMs = 0, onCall }) {
  const tool = defineTool({
    name: 'work',
    description: 'Returns ok.',
    inputSchema: z.object({}),
    readOnly: true,
    execute: waitMs > 0 ? () => new Promise((resolve) => setTimeout(resolve, waitMs, 'ok')) : () => 'ok',
  });
  const model = toolTurnsModel({ toolName: tool.name, toolTurns, callsPerTurn, onCall });
  const options = { model, tools: [tool], maxTurns: toolTurns + 1 };
  return async function runOnce(prompt) {
    const agent = createAgent(options);
    const result = await agent.run(prompt).result;
    if (result.status !== 'completed' || result.turns !== toolTurns + 1) {
      throw new Error(`agent-harness run ended ${result.status} after ${result.turns} turns${result.error ? `: ${result.error.message}` : ''}`);
    }
    return { agent, result };
  };
}

/** The conversation a host would keep to continue it. */
export const history = (held) => held.agent.messages;
