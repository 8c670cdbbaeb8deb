// The first agent of a fresh process (bench/footprint.bench.mjs): after the import of zod and
// agent-harness and a host tool defined (what the host's own module does at load), the time of
// createAgent + a run of one tool turn and the answer with an instant fake model, then the same
// again in that process (its code now compiled). Prints `{ "firstMs": …, "againMs": … }`.
// Run: `node bench/lib/first-run-process.mjs [path of a build's index.js]`.
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { fakeModel, toolUses } from './fake-model.mjs';

const core = process.argv[2] ? pathToFileURL(process.argv[2]).href : new URL('../../dist/index.js', import.meta.url).href;
const { createAgent, defineTool } = await import(core);
const note = defineTool({ name: 'note', description: 'Takes a note.', inputSchema: z.object({ text: z.string() }), readOnly: true, execute: ({ input }) => `Noted: ${input.text}` });

async function run() {
  let turns = 0;
  const model = fakeModel({ decide: () => (++turns === 1 ? toolUses('note', 1).map((use) => ({ ...use, input: { text: 'tide pools' } })) : [{ type: 'text', text: 'Done.' }]) });
  const started = performance.now();
  const result = await createAgent({ model, tools: [note] }).run('Take a note.').result;
  const elapsed = performance.now() - started;
  if (result.status !== 'completed' || result.turns !== 2) throw new Error(`the run ended ${result.status} after ${result.turns} turns: ${result.error?.message}`);
  return elapsed;
}

const firstMs = await run();
const againMs = await run();
process.stdout.write(`${JSON.stringify({ firstMs, againMs })}\n`);
