// Run by young-generation.test.ts as `node --import tsx --expose-gc`: how much of a finished,
// unreferenced agent is still in the old generation after two young-generation GCs. Prints JSON.
import { getHeapSpaceStatistics } from 'node:v8';
import { z } from 'zod';
import { createAgent, defineTool } from '../../src/index.js';
import type { Model, ModelStreamEvent } from '../../src/index.js';

declare const gc: (options?: { type: 'minor' | 'major'; execution: 'sync' | 'async' }) => void;

const AGENTS = 400;
let contexts = 0;
const tool = defineTool({
  name: 'probe',
  description: 'Reads its agent context.',
  inputSchema: z.object({}),
  readOnly: true,
  execute: ({ agent }) => {
    if (agent.permissionMode === 'default') contexts++;
    return 'ok';
  },
});

let ids = 0;
/** One tool turn, then the answer: reads the history, keeps nothing. */
const model: Model = {
  specificationVersion: 'v1',
  provider: 'test',
  modelId: 'young-generation',
  async *stream(request): AsyncIterable<ModelStreamEvent> {
    const toolTurn = request.messages.length === 1;
    const content = toolTurn ? [{ type: 'tool_use' as const, id: `toolu_${ids++}`, name: 'probe', input: {} }] : [{ type: 'text' as const, text: 'Done.' }];
    yield { type: 'response', response: { message: { role: 'assistant', content }, stopReason: toolTurn ? 'tool_use' : 'end_turn', usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } } };
  },
};

const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;
const nextTask = () => new Promise((resolve) => setImmediate(resolve));

async function agents(count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const result = await createAgent({ model, tools: [tool], maxTurns: 2 }).run('Go.').result;
    if (result.status !== 'completed') throw new Error(`run ended ${result.status}`);
    if (index % 50 === 0) await nextTask();
  }
}

async function growth(): Promise<number> {
  await nextTask();
  gc({ type: 'major', execution: 'sync' });
  await nextTask();
  gc({ type: 'major', execution: 'sync' });
  const before = oldSpace();
  await agents(AGENTS);
  await nextTask();
  gc({ type: 'minor', execution: 'sync' });
  gc({ type: 'minor', execution: 'sync' });
  return (oldSpace() - before) / AGENTS;
}

await agents(50); // compiled code and shared caches are not what is measured
// The least of three rounds: a GC of the harness's own making can only add to a round.
console.log(JSON.stringify({ perAgent: Math.min(await growth(), await growth(), await growth()), contexts }));
