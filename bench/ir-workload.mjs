// The workload for instruction counts (callgrind counts instructions, not seconds, so two builds
// compare the same on a loaded machine): `runs` runs of `turns` tool turns plus the answer, with
// the build at the path given. Run it twice under valgrind with different `runs`, and the
// difference divided by the extra turns is one turn after warm-up (JIT compilation included only
// in the first part):
//   ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded bench/ir-workload.mjs "$@" 2>&1 | grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$'; }
//   echo $(( ($(ir dist/index.js 60 400) - $(ir dist/index.js 20 400)) / 16000 ))   # per turn
// `--single-threaded` keeps V8's compiler on the main thread, so repeated counts agree to ~2%.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { toolTurnsModel } from './lib/fake-model.mjs';

const [build = 'dist/index.js', runsArg = '20', turnsArg = '1'] = process.argv.slice(2);
const lib = await import(pathToFileURL(resolve(build)).href);
const runs = Number(runsArg);
const turns = Number(turnsArg);
const tool = lib.defineTool({ name: 'trivial', description: 'Returns ok at once.', inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });
const model = toolTurnsModel({ toolName: 'trivial', toolTurns: turns });
for (let run = 0; run < runs; run++) {
  const result = await lib.createAgent({ model, tools: [tool], maxTurns: turns + 1 }).run('Go.').result;
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}`);
}
