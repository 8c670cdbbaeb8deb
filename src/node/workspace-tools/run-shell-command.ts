import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { forkCount, killEscapedProcesses, outputPipesOf, startTimeOf } from './kill-escaped-processes.js';
import { BoundedText } from './truncate-output.js';

/** The variable that marks every process a Bash call starts (see `killEscapedProcesses`). */
export const COMMAND_MARK_VARIABLE = 'AGENT_HARNESS_COMMAND';

/** Options of {@link runShellCommand}. */
export interface RunShellCommandOptions {
  /** The command line, run as `<shell> -c <command>`. */
  command: string;
  /** Working directory of the command. */
  cwd: string;
  /** The shell executable. */
  shell: string;
  /** The command's environment. */
  env: Record<string, string | undefined>;
  /** Kill the command's process group after this many milliseconds. */
  timeoutMs: number;
  /** Most characters kept of each of stdout and stderr (beginning and end). */
  maxOutputChars: number;
  /** Kills the command's process group when aborted. */
  signal: AbortSignal;
}

/** What happened to a command run by {@link runShellCommand}. */
export interface ShellCommandResult {
  stdout: string;
  stderr: string;
  /** The shell's exit code; `null` when it was killed by a signal or never started. */
  exitCode: number | null;
  /** The process id of the shell (also its process group id), when it started. */
  pid: number | undefined;
  timedOut: boolean;
  aborted: boolean;
  /** Why the shell could not be started. */
  spawnError: string | undefined;
}

/** How long to wait for output pipes to close after the process group was killed. */
const CLOSE_GRACE_MS = 1000;

/**
 * Runs a shell command in its own process group (`detached: true`, so the shell leads a new
 * session) with stdin closed. On timeout or abort, and also when the shell exits, the whole group
 * is killed with SIGKILL, and so, on Linux, are the processes that left it (a `set -m` job, a
 * `setsid` daemon: see `killEscapedProcesses`), so nothing the command started outlives the call.
 */
export function runShellCommand(options: RunShellCommandOptions): Promise<ShellCommandResult> {
  const stdout = new BoundedText(options.maxOutputChars);
  const stderr = new BoundedText(options.maxOutputChars);
  const result: ShellCommandResult = { stdout: '', stderr: '', exitCode: null, pid: undefined, timedOut: false, aborted: false, spawnError: undefined };
  if (options.signal.aborted) return Promise.resolve({ ...result, aborted: true });

  const environmentMark = `${COMMAND_MARK_VARIABLE}=${randomUUID()}`;
  // Before the shell exists: every process the command starts is counted after this.
  const forksBefore = forkCount();
  return new Promise((resolve) => {
    const child = spawn(options.shell, ['-c', options.command], {
      cwd: options.cwd,
      env: { ...options.env, [COMMAND_MARK_VARIABLE]: environmentMark.slice(COMMAND_MARK_VARIABLE.length + 1) },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    result.pid = child.pid;
    let finished = false;
    let closeTimer: NodeJS.Timeout | undefined;
    // Read now, before the command can redirect them: what its processes write their output to.
    const pipes = outputPipesOf(child.pid);
    const startedAt = startTimeOf(child.pid);

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone
      }
      killEscapedProcesses({ sessionId: child.pid, environmentMark, pipes, startedAt, forksBefore });
    };
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(closeTimer);
      options.signal.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ ...result, stdout: stdout.toString(), stderr: stderr.toString() });
    };
    const onAbort = () => {
      result.aborted = true;
      killGroup();
    };
    const timer = setTimeout(() => {
      result.timedOut = true;
      killGroup();
    }, options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => stdout.push(chunk));
    child.stderr.on('data', (chunk: string) => stderr.push(chunk));
    child.on('error', (error) => {
      result.spawnError = error.message;
      killGroup();
      finish();
    });
    child.on('exit', (code) => {
      result.exitCode = code;
      // Background jobs of the command would keep the pipes open and outlive the call.
      killGroup();
      closeTimer = setTimeout(finish, CLOSE_GRACE_MS);
    });
    child.on('close', finish);
  });
}
