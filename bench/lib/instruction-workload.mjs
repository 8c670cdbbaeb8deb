// The workload bench/ab-instructions.mjs runs under valgrind: 300 warm-up whole runs, then either
// `count` whole new-session runs (createAgent + one tool turn + the answer) or one run of `count`
// tool turns. The instructions of two counts differ by those of the runs (or turns) between them.
//   node lib/instruction-workload.mjs <dist/index.js> whole|turns <count>
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { toolTurnsModel } from './fake-model.mjs';

const [dist, mode, countText] = process.argv.slice(2);
const lib = await import(pathToFileURL(resolve(dist)).href);
const tool = lib.defineTool({ name: 'trivial', description: 'Returns ok at once.', inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });
const count = Number(countText);
const oneTurn = toolTurnsModel({ toolName: 'trivial', toolTurns: 1 });
const wholeRun = () => lib.createAgent({ model: oneTurn, tools: [tool], maxTurns: 2 }).run('Go.').result;
for (let index = 0; index < 300; index++) await wholeRun();
if (mode === 'whole') {
  for (let index = 0; index < count; index++) await wholeRun();
} else {
  const model = toolTurnsModel({ toolName: 'trivial', toolTurns: count });
  await lib.createAgent({ model, tools: [tool], maxTurns: count + 1 }).run('Go.').result;
}
