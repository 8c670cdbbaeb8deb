import { gaps, mean, median } from '../../lib/stats.mjs';

/** History lengths timed, interleaved within one process. */
export const SIZES = [50, 200, 1000];

/** 200-turn runs before any is timed (`BENCH_WARMUP_RUNS`). */
const WARMUP_RUNS = Number(process.env.BENCH_WARMUP_RUNS ?? 45);

/**
 * Per-turn loop overhead: runs of N one-call turns (a tool that returns at once) and a final text
 * turn. A turn is the gap between two model calls. Warm-up: 45 runs of 200 turns (9,000 turns;
 * `BENCH_WARMUP_RUNS`): with 15, agent-harness's per-run medians still fell from about 12 µs to 5
 * over the first timed rounds, so the first sizes of each run read the warm-up. Then `runs` rounds of every
 * size, interleaved so drift spreads over all of them.
 * Returns per size the median of the per-run medians and of the per-run means (µs), and the
 * pooled first and last tenth of the longest runs.
 */
export async function perTurn({ prepare, runs }) {
  let calls = [];
  const timed = async (toolTurns) => {
    calls = [];
    await prepare({ toolTurns, onCall: (now) => calls.push(now) })('Go.');
    if (calls.length !== toolTurns + 1) throw new Error(`expected ${toolTurns + 1} model calls, saw ${calls.length}`);
    return gaps(calls).map((milliseconds) => milliseconds * 1000);
  };
  for (let index = 0; index < WARMUP_RUNS; index++) await timed(200);
  const bySize = Object.fromEntries(SIZES.map((size) => [size, { medians: [], means: [] }]));
  const first = [];
  const last = [];
  for (let run = 0; run < runs; run++) {
    for (const size of SIZES) {
      const turns = await timed(size);
      bySize[size].medians.push(median(turns));
      bySize[size].means.push(mean(turns));
      if (size === SIZES.at(-1)) {
        const tenth = Math.floor(size / 10);
        first.push(...turns.slice(0, tenth));
        last.push(...turns.slice(-tenth));
      }
    }
  }
  const sizes = Object.fromEntries(SIZES.map((size) => [size, { medianUs: median(bySize[size].medians), meanUs: median(bySize[size].means), runMedians: bySize[size].medians }]));
  return { sizes, firstTenthUs: median(first), lastTenthUs: median(last) };
}
