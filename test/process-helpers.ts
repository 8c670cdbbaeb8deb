import { readFileSync } from 'node:fs';

/** Gone, or a zombie nobody has reaped yet (it no longer runs). */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
  } catch {
    return true;
  }
}
