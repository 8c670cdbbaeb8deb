/**
 * The header every issue-16 benchmark prints: the machine, Node, and the versions of the
 * packages measured against (issue 16: ratios are only comparable within one run on one machine).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The installed version of `name`, resolved from the repo root (or from `bench/` for the peers), or `not installed`. */
export function installedVersion(name, { from = root } = {}) {
  try {
    const require = createRequire(`${from}/noop.js`);
    // Walk up from the package's entry to its package.json (some packages do not export ./package.json).
    let dir = require.resolve(name);
    for (;;) {
      dir = dir.slice(0, dir.lastIndexOf('/'));
      try {
        const pkg = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
        if (pkg.name === name) return pkg.version;
      } catch {
        // keep walking up
      }
      if (!dir.includes('/node_modules/')) return 'unknown';
    }
  } catch {
    return 'not installed';
  }
}

/** One header line block: title, machine, Node, versions, mode. */
export function environmentHeader(title, { quick, extra = [] } = {}) {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const load = os.loadavg().map((value) => value.toFixed(1)).join(' ');
  const own = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).version;
  const peers = [
    `@anthropic-ai/sdk ${installedVersion('@anthropic-ai/sdk')}`,
    `zod ${installedVersion('zod')}`,
    `@openai/agents ${installedVersion('@openai/agents', { from: `${root}/bench` })}`,
    `ai ${installedVersion('ai', { from: `${root}/bench` })}`,
  ];
  return [
    `${title}`,
    `machine: ${cores} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.platform()} ${os.release()}, load ${load}`,
    `node ${process.version}; agent-harness ${own} (dist/); ${peers.join(', ')}`,
    `mode: ${quick ? 'quick (default; pass --full for the full sizes)' : 'full'}${extra.length ? `; ${extra.join('; ')}` : ''}`,
    '',
  ].join('\n');
}

/** `--full` on the command line or BENCH_FULL=1. */
export const fullRun = process.argv.includes('--full') || process.env.BENCH_FULL === '1';

export const verdict = (ok) => (ok ? 'PASS' : 'MISS');
export const times = (value) => `${value.toFixed(2)}×`;
export const us = (value) => `${value.toFixed(1)} µs`;
export const msText = (value) => `${value.toFixed(2)} ms`;
export const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
