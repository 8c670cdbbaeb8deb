import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

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
}

/** Most scans: a process that forks while being killed is caught by the next one. */
const MAX_ROUNDS = 20;

/** The session and start time of a live process; `undefined` for one that is gone or a zombie (it runs no more). */
function statusOf(pid: string | number): { session: number; startedAt: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
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
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(mark);
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

/**
 * Kills (SIGKILL) the processes a Bash call started that left its process group, so that the
 * group kill missed them: a job started under `set -m`, a `setsid` or `setpgid` daemon. On Linux
 * it scans `/proc` for processes of the command's session, processes whose environment carries
 * the call's mark, and processes holding the call's output pipes, until a scan finds none. A
 * process that leaves the session, scrubs its environment and closes its output escapes: a
 * best effort, not a sandbox (run untrusted work in a container). Elsewhere it does nothing.
 * @returns how many processes were killed.
 */
export function killEscapedProcesses(marks: CommandMarks): number {
  if (process.platform !== 'linux') return 0;
  let killed = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let entries: string[];
    try {
      entries = readdirSync('/proc');
    } catch {
      return killed;
    }
    let found = 0;
    for (const pid of entries) {
      if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
      const status = statusOf(pid);
      if (status === undefined || (marks.startedAt !== undefined && status.startedAt < marks.startedAt)) continue;
      if (status.session !== marks.sessionId && !carriesMark(pid, marks.environmentMark) && !holdsPipe(pid, marks.pipes)) continue;
      try {
        process.kill(Number(pid), 'SIGKILL');
        found++;
      } catch {
        // gone already, or not ours to kill
      }
    }
    killed += found;
    if (found === 0) break;
  }
  return killed;
}
