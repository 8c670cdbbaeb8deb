// The workload bench/ab-instructions.mjs runs under valgrind: 300 warm-up whole runs, then either
// `count` whole new-session runs (createAgent + one tool turn + the answer) or one run of `count`
// tool turns. The instructions of two counts differ by those of the runs (or turns) between them.
// `bare` in place of a build runs the bare hand-written loop (lib/bare-loop.mjs) the same way.
//   node lib/instruction-workload.mjs <dist/index.js>|bare whole|turns <count>
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { bareLoop } from './bare-loop.mjs';
import { toolTurnsModel } from './fake-model.mjs';

const [dist, mode, countText] = process.argv.slice(2);
const count = Number(countText);
let loop = bareLoop;
if (dist !== 'bare') {
  const lib = await import(pathToFileURL(resolve(dist)).href);
  const tool = lib.defineTool({ name: 'trivial', description: 'Returns ok at once.', inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });
  loop = (model, prompt, maxTurns) => lib.createAgent({ model, tools: [tool], maxTurns }).run(prompt).result;
}
const oneTurn = toolTurnsModel({ toolName: 'trivial', toolTurns: 1 });
for (let index = 0; index < 300; index++) await loop(oneTurn, 'Go.', 2);
if (mode === 'whole') {
  for (let index = 0; index < count; index++) await loop(oneTurn, 'Go.', 2);
} else {
  await loop(toolTurnsModel({ toolName: 'trivial', toolTurns: count }), 'Go.', count + 1);
}
