// One library × one scenario, in its own process (spawned by main.mjs with --expose-gc), so no two
// libraries share a heap or JIT state. Prints one JSON line with the result.
import { heldHeap } from './scenarios/held-heap.mjs';
import { parallelTurn } from './scenarios/parallel-turn.mjs';
import { perTurn } from './scenarios/per-turn.mjs';

const [libraryFile, scenario] = process.argv.slice(2);
const library = await import(`./libraries/${libraryFile}.mjs`);
const runs = Number(process.env.BENCH_RUNS ?? 7);
const scenarios = {
  'per-turn': () => perTurn({ prepare: library.prepare, runs }),
  parallel: () => parallelTurn({ prepare: library.prepare, samples: 100 }),
  heap: () => heldHeap({ prepare: library.prepare, history: library.history }),
};
if (!scenarios[scenario]) throw new Error(`unknown scenario ${scenario}; one of ${Object.keys(scenarios).join(', ')}`);
const result = await scenarios[scenario]();
process.stdout.write(`${JSON.stringify(result)}\n`);
