/**
 * The builds a set-up or tool-call benchmark measures: this checkout's `dist/` (`this`) and, with
 * `BENCH_BASE=<another build's dist/ folder>`, that one too (`base`), loaded in the same process
 * so that the rounds can alternate between them. Each is `{ lib, node }`: its `agent-harness` and
 * `agent-harness/node` entry points.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const load = async (dist) => ({
  lib: await import(pathToFileURL(path.join(dist, 'index.js')).href),
  node: await import(pathToFileURL(path.join(dist, 'node', 'index.js')).href),
});

/** The other build's folder (`BENCH_BASE`), or `undefined`. */
export const base = process.env.BENCH_BASE;

/** `{ this, base? }`, each `{ lib, node }`. */
export async function loadBuilds() {
  const own = fileURLToPath(new URL('../../dist', import.meta.url));
  return { this: await load(own), ...(base ? { base: await load(path.resolve(base)) } : {}) };
}
