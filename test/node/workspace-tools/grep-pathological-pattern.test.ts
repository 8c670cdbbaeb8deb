// Grep with a catastrophic pattern (issue 10): `^(a+)+$` on a 32-character line blocked the event
// loop for 54 s and interrupt() could not fire. The pattern now runs in a worker with a deadline.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { callTool, makeTempDir, toolNamed } from './helpers.js';

let work: string;
beforeAll(async () => {
  work = await makeTempDir('ws-grep-redos-');
  await fs.writeFile(path.join(work, 'evil.txt'), `${'a'.repeat(31)}!\nfine line\n`);
  await fs.writeFile(path.join(work, 'ok.txt'), 'aaaa\n');
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

/** Counts event-loop turns while a promise is pending: proof the main thread was not blocked. */
async function countTicks<T>(promise: Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    ticks++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const value = await promise.finally(() => {
    done = true;
  });
  return { value, ticks };
}

describe('Grep with a pathological pattern', () => {
  it('ends with a clear timeout error and the event loop keeps turning meanwhile', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work, grepTimeoutMs: 300 }), 'Grep');
    const { value: result, ticks } = await countTicks(callTool(grep, { pattern: '^(a+)+$', output_mode: 'content' }));
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/stopped after 300 ms: the regular expression "\^\(a\+\)\+\$" takes too long/);
    expect(ticks).toBeGreaterThan(10);
  });

  it('an abort stops it at once, long before the deadline', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work, grepTimeoutMs: 600_000 }), 'Grep');
    const controller = new AbortController();
    let ticks = 0;
    // Abort from the event loop after it has turned a few times: only possible if it is not blocked.
    const tick = () => {
      if (++ticks === 20) controller.abort();
      else if (!controller.signal.aborted) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await callTool(grep, { pattern: '^(a+)+$', path: 'evil.txt' }, { signal: controller.signal });
    expect(controller.signal.aborted).toBe(true);
    expect(result).toMatchObject({ isError: true, text: 'The search was interrupted.' });
  });

  it('an already aborted call searches nothing', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work }), 'Grep');
    const controller = new AbortController();
    controller.abort();
    const result = await callTool(grep, { pattern: 'a' }, { signal: controller.signal });
    expect(result.text).toBe('The search was interrupted.');
  });

  it('ordinary patterns still work through the worker, with -i and context', async () => {
    const grep = toolNamed(workspaceTools({ cwd: work }), 'Grep');
    expect((await callTool(grep, { pattern: 'FINE', '-i': true, output_mode: 'content' })).text).toBe('evil.txt:2:fine line');
    expect((await callTool(grep, { pattern: '^a+$', output_mode: 'count' })).text).toMatch(/ok\.txt:1/);
  });
});
