import { readdirSync, readlinkSync } from 'node:fs';
import { readProcText } from './read-proc-text.js';

/** What marks the processes a Bash call started, for {@link killEscapedProcesses}. */
export interface CommandMarks {
  /** The shell's pid: it leads a session of its own, so every process it starts is in that session unless it calls `setsid`. */
  sessionId: number;
  /** `NAME=value` set in the command's environment only (inherited by everything it starts unless scrubbed). */
  environmentMark: string;
  /**
   * What the command's stdout and stderr are (`socket:[inode]` or `pipe:[inode]`, as
   * `/proc/<pid>/fd` shows them), held by whatever still writes to them.
   */
  pipes: readonly string[];
  /**
   * The shell's start time (clock ticks since boot, see {@link startTimeOf}): a process started
   * before it is none of the command's, and is not looked at further.
   */
  startedAt: number | undefined;
  /**
   * The system's fork count ({@link forkCount}) read before the shell was started: with it, a
   * scan reads only the processes whose pid was given out since the shell's (see
   * {@link pidsSince}), not every process of the machine.
   * @default undefined (every process is looked at)
   */
  forksBefore?: number | undefined;
}

/** Most scans: a process that forks while being killed is caught by the next one. */
const MAX_ROUNDS = 20;

/** The session and start time of a live process; `undefined` for one that is gone or a zombie (it runs no more). */
function statusOf(pid: string | number): { session: number; startedAt: number } | undefined {
  try {
    const stat = readProcText(`/proc/${pid}/stat`);
    // Fields after the command name (which may hold spaces and parentheses), from field 3 (state)
    // on: state ppid pgrp session ... starttime is field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return { session: Number(fields[3]), startedAt: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

/** When a process started, in clock ticks since boot (Linux); `undefined` elsewhere or when it is gone. */
export function startTimeOf(pid: number | undefined): number | undefined {
  if (process.platform !== 'linux' || pid === undefined) return undefined;
  return statusOf(pid)?.startedAt;
}

function carriesMark(pid: string, mark: string): boolean {
  try {
    return readProcText(`/proc/${pid}/environ`).split('\0').includes(mark);
  } catch {
    return false;
  }
}

function holdsPipe(pid: string, pipes: readonly string[]): boolean {
  if (pipes.length === 0) return false;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      if (pipes.includes(readlinkSync(`/proc/${pid}/fd/${fd}`))) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

/**
 * What a just-started process's stdout and stderr are (`socket:[inode]` or `pipe:[inode]`), on
 * Linux; read at once, before the command can redirect them.
 */
export function outputPipesOf(pid: number | undefined): string[] {
  if (process.platform !== 'linux' || pid === undefined) return [];
  const pipes: string[] = [];
  for (const fd of [1, 2]) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (/^(pipe|socket):\[\d+\]$/.test(link)) pipes.push(link);
    } catch {
      // gone already
    }
  }
  return pipes;
}

/** The integer `pattern` captures in `file`, or `undefined` (no such file, no match). */
function readNumber(file: string, pattern: RegExp): number | undefined {
  let match: RegExpExecArray | null;
  try {
    match = pattern.exec(readProcText(file));
  } catch {
    return undefined;
  }
  const value = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(value) ? value : undefined;
}

/** How many processes and threads the system has created since it booted (`processes` in /proc/stat), on Linux; else `undefined`. */
export function forkCount(): number | undefined {
  return process.platform === 'linux' ? readNumber('/proc/stat', /^processes (\d+)$/m) : undefined;
}

/** Where the kernel starts giving out pids again after `pid_max`. */
const RESERVED_PIDS = 300;

/** What {@link pidsSince} works from, all read off /proc. */
export interface PidWindow {
  /** The shell's pid. */
  shellPid: number;
  /** {@link forkCount} before the shell started. */
  forksBefore: number;
  /** {@link forkCount} now. */
  forksNow: number;
  /** The last pid given out in this pid namespace (the last field of /proc/loadavg). */
  lastPid: number;
  /** /proc/sys/kernel/pid_max. */
  pidMax: number;
  /** How many processes are alive now. */
  alive: number;
}

/**
 * Which pids can belong to a process started since the shell: pids are given out in turn,
 * wrapping at `pid_max`, so those from the shell's up to the last one given out. Only when that is
 * sure; else `undefined` (look at every process):
 * - the fork count must have moved (by the shell, at least): a system that reports a fixed count
 *   (a sandbox's made-up /proc) tells nothing;
 * - fewer pids can have been given out than it takes to come round again to the shell's (forks,
 *   plus the pids skipped because they are in use, under half of `pid_max`);
 * - the last pid must be reachable from the shell's within as many steps.
 * A process older than the shell may hold a pid in the window (an earlier lap's): the start time
 * check passes over it.
 */
export function pidsSince(window: PidWindow): ((pid: number) => boolean) | undefined {
  const { shellPid, forksBefore, forksNow, lastPid, pidMax, alive } = window;
  const forks = forksNow - forksBefore;
  if (![shellPid, forksBefore, forksNow, lastPid, pidMax, alive].every(Number.isSafeInteger) || forks < 1) return undefined;
  const steps = forks + alive;
  if (steps >= pidMax / 2) return undefined;
  const wrapped = lastPid < shellPid;
  // Past pid_max the count starts again at 300 (the kernel's RESERVED_PIDS).
  const distance = wrapped ? pidMax - shellPid + Math.max(0, lastPid - RESERVED_PIDS) : lastPid - shellPid;
  if (distance > steps) return undefined;
  return wrapped ? (pid) => pid >= shellPid || pid <= lastPid : (pid) => pid >= shellPid && pid <= lastPid;
}

/**
 * The {@link PidWindow} of this moment, from /proc; `undefined` when /proc does not tell.
 * @param alive - the live processes counted by the caller; by default the live tasks
 *   /proc/loadavg counts (threads included, as the pids skipped for being in use must be).
 */
function windowNow(marks: CommandMarks, alive?: number): PidWindow | undefined {
  if (marks.forksBefore === undefined) return undefined;
  const forksNow = forkCount();
  let loadavg: string;
  try {
    loadavg = readProcText('/proc/loadavg');
  } catch {
    return undefined;
  }
  // "0.10 0.20 0.30 2/345 12345": running/live tasks, then the last pid given out.
  const match = /\d+\/(\d+)\s+(\d+)\s*$/.exec(loadavg);
  const pidMax = readNumber('/proc/sys/kernel/pid_max', /^(\d+)/);
  if (!match || forksNow === undefined || pidMax === undefined) return undefined;
  return { shellPid: marks.sessionId, forksBefore: marks.forksBefore, forksNow, lastPid: Number(match[2]), pidMax, alive: alive ?? Number(match[1]) };
}

/** Most pids a scan reads one by one (those given out since the shell's) rather than listing /proc. */
const MAX_PROBED_PIDS = 256;

/**
 * The pids given out since the shell's, when /proc makes that sure ({@link pidsSince}) and they
 * are few: a scan then reads each one's `/proc/<pid>/stat` (most are gone) instead of listing
 * every process of the machine first. Thread ids are among them (threads take pids too).
 * `undefined`: list /proc.
 * @internal exported for tests
 */
export function probedPids(marks: CommandMarks): number[] | undefined {
  const window = windowNow(marks);
  if (window === undefined || pidsSince(window) === undefined) return undefined;
  const { shellPid, lastPid, pidMax } = window;
  const wrapped = lastPid < shellPid;
  const count = wrapped ? pidMax - shellPid + lastPid : lastPid - shellPid + 1;
  if (count > MAX_PROBED_PIDS) return undefined;
  const pids: number[] = [];
  if (wrapped) {
    for (let pid = shellPid; pid < pidMax; pid++) pids.push(pid);
    for (let pid = 1; pid <= lastPid; pid++) pids.push(pid);
  } else {
    for (let pid = shellPid; pid <= lastPid; pid++) pids.push(pid);
  }
  return pids;
}

let ownSession: number | undefined;

/** This process's session: none of a command's processes can be in it (the shell leads a new one), though this process's own threads, whose ids a probe reads, are. */
function ownSessionId(): number | undefined {
  ownSession ??= statusOf('self')?.session;
  return ownSession;
}

/**
 * Kills (SIGKILL) the processes a Bash call started that left its process group, so that the
 * group kill missed them: a job started under `set -m`, a `setsid` or `setpgid` daemon. On Linux
 * it scans `/proc` for processes of the command's session, processes whose environment carries
 * the call's mark, and processes holding the call's output pipes, until a scan finds none. A
 * process that leaves the session, scrubs its environment and closes its output escapes: a
 * best effort, not a sandbox (run untrusted work in a container). Elsewhere it does nothing.
 * With `forksBefore`, a scan reads only the processes whose pid was given out since the shell's
 * ({@link pidsSince}) where /proc makes that sure: a machine with thousands of processes costs
 * a Bash call a few reads instead of thousands.
 * @returns how many processes were killed.
 */
export function killEscapedProcesses(marks: CommandMarks): number {
  if (process.platform !== 'linux') return 0;
  let killed = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = scanRound(marks);
    if (found === undefined) return killed;
    killed += found;
    if (found === 0) break;
  }
  return killed;
}

/** One scan: kills what it finds of the command's, and says how many; `undefined` when /proc cannot be listed. */
function scanRound(marks: CommandMarks): number | undefined {
  // Only with this process's session known: its own threads must be told apart.
  const session = ownSessionId();
  const probed = session === undefined ? undefined : probedPids(marks);
  if (probed !== undefined) {
    let found = 0;
    for (const pid of probed) {
      if (pid === process.pid) continue;
      const status = statusOf(pid);
      // Gone (most of them), older than the shell (an earlier lap's pid), or one of this process's threads.
      if (status === undefined || (marks.startedAt !== undefined && status.startedAt < marks.startedAt) || status.session === session) continue;
      if (killIfMarked(String(pid), status, marks)) found++;
    }
    return found;
  }
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const pids = entries.filter((entry) => /^\d+$/.test(entry));
  // Read after the listing, so the last pid given out covers every listed process. One started
  // after the listing is in neither, as before: the next round finds it (a round that kills
  // something is followed by another).
  const window = windowNow(marks, pids.length);
  const since = window === undefined ? undefined : pidsSince(window);
  let found = 0;
  for (const pid of pids) {
    if (Number(pid) === process.pid || (since !== undefined && !since(Number(pid)))) continue;
    const status = statusOf(pid);
    if (status === undefined || (marks.startedAt !== undefined && status.startedAt < marks.startedAt)) continue;
    if (killIfMarked(pid, status, marks)) found++;
  }
  return found;
}

/** Kills a process of the command's session, or carrying its mark, or holding its output pipes; true when it was killed. */
function killIfMarked(pid: string, status: { session: number }, marks: CommandMarks): boolean {
  if (status.session !== marks.sessionId && !carriesMark(pid, marks.environmentMark) && !holdsPipe(pid, marks.pipes)) return false;
  try {
    process.kill(Number(pid), 'SIGKILL');
    return true;
  } catch {
    // gone already, or not ours to kill
    return false;
  }
}
