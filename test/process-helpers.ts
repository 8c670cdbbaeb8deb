import { spawn } from 'node:child_process';
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

/** Runs a TypeScript script in a child process (`node --import tsx`) to its end: its stdout and the signal that ended it, if any. */
export function runTsxChild(script: string, args: readonly string[], cwd: string): Promise<{ signal: NodeJS.Signals | null; stdout: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('error', fail);
    child.on('exit', (_code, signal) => done({ signal, stdout }));
  });
}
