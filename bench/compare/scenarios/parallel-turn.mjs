import { median } from '../../lib/stats.mjs';

export const CALLS = 8;
export const WAIT_MS = 5;

/**
 * One turn of 8 parallel calls to a tool that waits 5 ms: runs of that one tool turn and a final
 * text turn, timed from the first model call to the second. 20 warm-up runs, then `samples` runs.
 * The floor is the same 8 timers awaited with Promise.all, no agent.
 */
export async function parallelTurn({ prepare, samples }) {
  let calls = [];
  const runOnce = prepare({ toolTurns: 1, callsPerTurn: CALLS, waitMs: WAIT_MS, onCall: (now) => calls.push(now) });
  const turns = [];
  for (let index = 0; index < 20 + samples; index++) {
    calls = [];
    await runOnce('Go.');
    if (calls.length !== 2) throw new Error(`expected 2 model calls, saw ${calls.length}`);
    if (index >= 20) turns.push(calls[1] - calls[0]);
  }
  const floor = [];
  for (let index = 0; index < samples; index++) {
    const started = performance.now();
    await Promise.all(Array.from({ length: CALLS }, () => new Promise((resolve) => setTimeout(resolve, WAIT_MS))));
    floor.push(performance.now() - started);
  }
  return { medianMs: median(turns), minMs: Math.min(...turns), floorMs: median(floor) };
}
