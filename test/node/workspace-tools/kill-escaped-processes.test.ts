import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { forkCount, killEscapedProcesses, pidsSince, startTimeOf, type PidWindow } from '../../../src/node/workspace-tools/kill-escaped-processes.js';
import { isGone, runTsxChild } from '../../process-helpers.js';
import { waitUntil } from './helpers.js';

const window = (changes: Partial<PidWindow> = {}): PidWindow => ({ shellPid: 1000, forksBefore: 50_000, forksNow: 50_010, lastPid: 1012, pidMax: 32_768, alive: 80, ...changes });

describe('pidsSince', () => {
  it('takes the pids from the shell’s to the last one given out', () => {
    const since = pidsSince(window())!;
    expect([999, 1000, 1001, 1012, 1013, 5].map(since)).toEqual([false, true, true, true, false, false]);
  });

  it('wraps at pid_max: the pids after the shell’s, then those from the bottom up to the last one', () => {
    const since = pidsSince(window({ shellPid: 32_760, lastPid: 305 }))!;
    expect([32_759, 32_760, 32_767, 300, 305, 306, 1000].map(since)).toEqual([false, true, true, true, true, false, false]);
  });

  it('counts pids skipped because they are in use: a window wider than the forks, within the live processes', () => {
    expect(pidsSince(window({ forksNow: 50_002, lastPid: 1060 }))).toBeDefined();
    expect(pidsSince(window({ forksNow: 50_002, lastPid: 1100 }))).toBeUndefined();
  });

  it('gives up (every process is looked at) when /proc cannot be trusted to tell', () => {
    // The count did not move (a sandbox's made-up /proc/stat), or went back.
    expect(pidsSince(window({ forksNow: 50_000 }))).toBeUndefined();
    expect(pidsSince(window({ forksNow: 49_000 }))).toBeUndefined();
    // So many forks that the pids may have come round to the shell's again.
    expect(pidsSince(window({ forksNow: 50_000 + 16_384 }))).toBeUndefined();
    expect(pidsSince(window({ alive: 16_384 }))).toBeUndefined();
    // A last pid out of reach of the shell's (another namespace's count, a made-up value).
    expect(pidsSince(window({ lastPid: 20_000 }))).toBeUndefined();
    expect(pidsSince(window({ lastPid: 0 }))).toBeUndefined();
    expect(pidsSince(window({ lastPid: Number.NaN }))).toBeUndefined();
    expect(pidsSince(window({ pidMax: 1.5 }))).toBeUndefined();
  });
});

describe.skipIf(process.platform !== 'linux')('killEscapedProcesses', () => {
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });

  /** A process in a session of its own, carrying `mark`, as a setsid daemon a command started would. */
  function daemon(mark: string) {
    const child = spawn('/bin/sh', ['-c', 'exec sleep 300'], { detached: true, stdio: 'ignore', env: { ...process.env, AGENT_HARNESS_TEST_MARK: mark } });
    child.unref();
    started.push(child.pid!);
    return child.pid!;
  }

  it.each([
    ['the fork count read before it started (only the pids since are read)', () => forkCount()],
    ['a fork count that cannot be right (every process is read)', () => Number.MAX_SAFE_INTEGER],
    ['no fork count', () => undefined],
  ])('kills a process carrying the mark, with %s', async (_name, before) => {
    const mark = `AGENT_HARNESS_TEST_MARK=${Math.random()}`;
    const forksBefore = before();
    const pid = daemon(mark.slice('AGENT_HARNESS_TEST_MARK='.length));
    // It is its own session leader, like the shell of a call, so its pid is where the window starts.
    expect(await waitUntil(() => startTimeOf(pid) !== undefined)).toBe(true);
    const killed = killEscapedProcesses({ sessionId: pid, environmentMark: mark, pipes: [], startedAt: startTimeOf(pid), forksBefore });
    expect(killed).toBeGreaterThanOrEqual(1);
    expect(await waitUntil(() => isGone(pid), 100)).toBe(true);
  });

  it('reads the fork count where /proc has it', () => {
    const before = forkCount()!;
    expect(Number.isSafeInteger(before)).toBe(true);
    spawn('/bin/true').unref();
    expect(forkCount()!).toBeGreaterThan(before);
  });
});

describe.skipIf(process.platform !== 'linux')('killEscapedProcesses, reading the pids given out since the shell', () => {
  it("passes over this process's own threads, whose ids are among them, even one holding what is looked for", async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const { signal, stdout } = await runTsxChild(join(here, '../fixtures/own-threads-scan.child.ts'), [], join(here, '../../..'));
    expect(signal).toBeNull();
    // The daemon (carrying the mark) was killed; the thread (holding the socket) was read and left:
    // killing it would have killed the process (signal SIGKILL above).
    expect(JSON.parse(stdout)).toEqual({ killedSome: true, daemonGone: true, probedThread: true });
  });
});
