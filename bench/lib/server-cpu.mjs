// The CPU time the store servers spend, for benchmarks that charge a fleet's sessions with it
// (bench/fleet.bench.mjs): PostgreSQL read from /proc (a server on this machine only), Redis from
// its own INFO. Each reading is cumulative; a benchmark subtracts two.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on every Linux build Node runs on). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time, in ms, of every PostgreSQL process on this machine, including the backends that
 * have exited since the server started (the postmaster's reaped children): undefined where there
 * is no /proc or no such process (a server elsewhere). The server's background processes
 * (checkpointer, autovacuum) are counted too.
 */
export function postgresCpuMs() {
  let ticks = 0;
  let found = false;
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid …": comm may hold spaces, so the fields are counted after its ')'.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    if (comm !== 'postgres' && !comm.startsWith('postgres:')) continue;
    const fields = stat.slice(close + 2).split(' ');
    // utime, stime, cutime, cstime: fields 14–17 of the line, 12–15 after "pid (comm) state".
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    found = true;
  }
  return found ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
}

/** The CPU time, in ms, Redis reports it has spent (`INFO cpu`: its main thread and the rest). */
export async function redisCpuMs(client) {
  const info = await client.info('cpu');
  const field = (name) => Number(info.match(new RegExp(`^${name}:([\\d.]+)`, 'm'))?.[1] ?? Number.NaN);
  return (field('used_cpu_sys') + field('used_cpu_user')) * 1000;
}
