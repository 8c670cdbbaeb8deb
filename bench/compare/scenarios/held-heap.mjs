import { settledHeap } from '../../lib/stats.mjs';

export const HELD = 1000;
export const TURNS = 20;

/**
 * Heap per held run: 1,000 runs of 20 one-call tool turns and a final text turn, each kept the
 * way a host keeps it (the library adapter's return value), with one shared model and tool.
 * Method as in loop.bench.mjs: settle (gc) and read heapUsed before and after; then JSON copies of
 * each history alone, the runs dropped, to tell the history from everything else.
 */
export async function heldHeap({ prepare, history }) {
  if (typeof global.gc !== 'function') throw new Error('run the worker with node --expose-gc');
  const runOnce = prepare({ toolTurns: TURNS });
  // Warm-up: compile what the measured phase uses, so code is not counted as data.
  for (let index = 0; index < 20; index++) JSON.parse(JSON.stringify(history(await runOnce(`Prompt ${index}.`))));
  const base = await settledHeap();
  let held = [];
  for (let index = 0; index < HELD; index++) held.push(await runOnce(`Prompt ${index}.`));
  const withHeld = await settledHeap();
  const copies = held.map((one) => JSON.parse(JSON.stringify(history(one))));
  const historyItems = history(held[0]).length;
  held = undefined;
  const copiesOnly = await settledHeap();
  if (copies.length !== HELD) throw new Error('lost the copies');
  const perHeld = (withHeld - base) / HELD;
  const historyJson = (copiesOnly - base) / HELD;
  return { perHeldBytes: perHeld, historyJsonBytes: historyJson, historyItems };
}
