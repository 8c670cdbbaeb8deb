import { renderTable } from '../lib/table.mjs';
import { median as medianOf } from '../lib/stats.mjs';

// Goals from issue 7 (agent-harness only; the peers are the yardstick).
export const GOALS = {
  turnRatio: 20,
  flatRatio: 1.25,
  parallelMs: 6,
  heldBytes: 20_000,
  importMs: 200,
  ownFilesBytes: 1_000_000,
};

const time = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);
const ms = (value) => `${value.toFixed(value >= 100 ? 0 : 1)} ms`;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const mb2 = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
const times = (ratio) => `${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(2)}×`;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

/**
 * One row: agent-harness's value, then each peer's value with its ratio to agent-harness
 * (peer ÷ agent-harness; above 1× means agent-harness is lower). `pick` returns a number or
 * undefined (shown as —).
 */
function row(label, libraries, pick, format, { goal = '—', result = 'info', ratio = true } = {}) {
  const [ours, ...peers] = libraries.map(pick);
  const cells = [ours === undefined ? '—' : format(ours)];
  for (const value of peers) {
    if (value === undefined) cells.push('—');
    else cells.push(ratio && ours ? `${format(value)} (${times(value / ours)})` : format(value));
  }
  return [label, ...cells, goal, result];
}

/** The comparison table. `results[name]` holds each library's scenario results (see main.mjs). */
export function renderReport({ libraries, results, sizes }) {
  const names = libraries.map((library) => library.name);
  const data = names.map((name) => results[name]);
  const [ours] = data;
  const rows = [];
  const turn = (size) => (entry) => entry.perTurn?.sizes[size].medianUs;

  rows.push(row('per turn, 50-turn run (median)', data, turn(50), time));
  const betterPeer = Math.min(...data.slice(1).map(turn(200)).filter((value) => value !== undefined));
  const turnOk = ours.perTurn && turn(200)(ours) * GOALS.turnRatio <= betterPeer;
  rows.push(row('per turn, 200-turn run (median)', data, turn(200), time, { goal: `≥ ${GOALS.turnRatio}× below better peer`, result: ours.perTurn ? verdict(turnOk) : '—' }));
  rows.push(row('per turn, 1,000-turn run (median)', data, turn(1000), time));
  rows.push(row('  mean per turn, 1,000-turn run (GC included)', data, (entry) => entry.perTurn?.sizes[1000].meanUs, time));
  // Per round (the sizes run back to back in each), then the median: a round the shared machine
  // slowed down slows both sizes, so it moves neither the ratio nor the median of the ratios.
  const growth = (entry) => entry.perTurn && medianOf(entry.perTurn.sizes[1000].runMedians.map((long, round) => long / entry.perTurn.sizes[50].runMedians[round]));
  const within = (entry) => entry.perTurn && entry.perTurn.lastTenthUs / entry.perTurn.firstTenthUs;
  rows.push(row('growth: 1,000-turn / 50-turn median (median of per-round ratios)', data, growth, times, { goal: `≤ ${GOALS.flatRatio}×`, result: ours.perTurn ? verdict(growth(ours) <= GOALS.flatRatio) : '—', ratio: false }));
  rows.push(row('growth: turns 901-1000 / 1-100 of the 1,000-turn runs', data, within, times, { goal: `≤ ${GOALS.flatRatio}×`, result: ours.perTurn ? verdict(within(ours) <= GOALS.flatRatio) : '—', ratio: false }));

  const parallel = (entry) => entry.parallel?.medianMs;
  rows.push(row('one turn of 8 parallel 5 ms tool calls (median)', data, parallel, (value) => `${value.toFixed(2)} ms`, { goal: `< ${GOALS.parallelMs} ms`, result: ours.parallel ? verdict(parallel(ours) < GOALS.parallelMs) : '—' }));
  rows.push(row('  floor: 8 bare 5 ms timers, Promise.all', data, (entry) => entry.parallel?.floorMs, (value) => `${value.toFixed(2)} ms`, { ratio: false }));

  const held = (entry) => entry.heap?.perHeldBytes;
  rows.push(row('heap per held 20-turn run (1,000 held)', data, held, kb, { goal: `< ${kb(GOALS.heldBytes)}`, result: ours.heap ? verdict(held(ours) < GOALS.heldBytes) : '—' }));
  rows.push(row('  its history alone, as JSON copies', data, (entry) => entry.heap?.historyJsonBytes, kb, { ratio: false }));

  const wall = (entry) => entry.import?.wallMs;
  rows.push(row('cold import, fresh process, Node start-up included (median)', data, wall, ms, { goal: `< ${GOALS.importMs} ms`, result: ours.import ? verdict(wall(ours) < GOALS.importMs) : '—' }));
  rows.push(row('  the import() alone, timed inside', data, (entry) => entry.import?.importMs, ms));

  if (sizes) {
    const disk = (key) => (entry) => entry.size?.[key]?.diskBytes;
    rows.push(row('installed size, npm default: peers installed (du -sk)', data, disk('withPeers'), mb));
    rows.push(row('installed size, --legacy-peer-deps: no peers (du -sk)', data, disk('withoutPeers'), mb));
    rows.push(row('  npm default, apparent size (du -sb)', data, (entry) => entry.size?.withPeers?.bytes, mb));
    for (const [name, size] of Object.entries(ours.size.packages ?? {})) {
      rows.push([`  of which ${name} (peer of agent-harness)`, mb(size.diskBytes), '—', '—', '—', 'info']);
    }
    const own = ours.size.ownFiles;
    rows.push(['own published files, unpacked (npm pack)', mb2(own.unpackedBytes), '—', '—', `< ${mb(GOALS.ownFilesBytes)}`, verdict(own.unpackedBytes < GOALS.ownFilesBytes)]);
    rows.push(['  without source maps', mb2(own.withoutMapsBytes), '—', '—', '—', 'info']);
    rows.push(['  tarball', mb2(own.tarballBytes), '—', '—', '—', 'info']);
  }
  return renderTable(['measure', ...names, 'goal (agent-harness)', 'result'], rows);
}
