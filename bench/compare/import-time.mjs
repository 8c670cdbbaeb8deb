import { spawnSync } from 'node:child_process';
import { median } from '../lib/stats.mjs';

/**
 * Cold import: a fresh `node --input-type=module -e "await import(spec)"` per sample, run from
 * `cwd` (bench/, so bare names resolve in bench/node_modules). Each target gets 2 unmeasured runs
 * (file cache), then `samples` rounds interleave the targets. Returns per target the median wall
 * time of the whole process (Node start-up included) and of the import alone (measured inside).
 * @param targets `{ key, specifier }`; a missing specifier measures bare Node.
 */
export function importTimes({ targets, samples, cwd }) {
  const once = ({ specifier }) => {
    const code = specifier
      ? `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`
      : 'process.stdout.write("0");';
    const started = performance.now();
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd, encoding: 'utf8' });
    const wall = performance.now() - started;
    if (child.status !== 0) throw new Error(`import of ${specifier} failed: ${child.stderr}`);
    return { wall, inside: Number(child.stdout) };
  };
  for (const target of targets) for (let index = 0; index < 2; index++) once(target);
  const samplesOf = new Map(targets.map((target) => [target.key, { wall: [], inside: [] }]));
  for (let round = 0; round < samples; round++) {
    for (const target of targets) {
      const { wall, inside } = once(target);
      samplesOf.get(target.key).wall.push(wall);
      samplesOf.get(target.key).inside.push(inside);
    }
  }
  return Object.fromEntries(targets.map(({ key }) => [key, { wallMs: median(samplesOf.get(key).wall), importMs: median(samplesOf.get(key).inside) }]));
}
