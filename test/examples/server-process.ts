/**
 * Runs an example server as a child process (`node --import tsx <file>`), so a test can really
 * kill it and start it again. The server must print its URL on stdout once it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: the child runs there, so tsx finds tsconfig.json and its `paths`. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Options of {@link startServerProcess}. */
export interface ServerProcessOptions {
  /** The script, relative to the repository root. */
  script: string;
  /** Extra environment variables (merged over this process's environment). */
  env: Record<string, string>;
  /**
   * How long to wait for the URL on stdout before failing, in milliseconds.
   * @default 20000
   */
  startTimeoutMs?: number;
}

/** A running server process. */
export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything it printed so far, for failure messages. */
  output(): string;
  /** Kills it with the signal and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the script and resolves once it has printed an `http://` URL. */
export function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', options.script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    let started = false;
    const fail = (reason: string) => {
      if (started) return;
      started = true;
      clearTimeout(timer);
      void stop();
      reject(new Error(`${options.script} did not start: ${reason}\n--- output ---\n${output}`));
    };
    const timer = setTimeout(() => fail(`no URL on stdout after ${options.startTimeoutMs ?? 20_000} ms`), options.startTimeoutMs ?? 20_000);
    child.once('exit', (code, signal) => fail(`it exited (code ${code}, signal ${signal})`));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/[^\s]+:(\d+)/.exec(output);
      if (!match || started) return;
      started = true;
      clearTimeout(timer);
      resolve({ url: match[0], port: Number(match[1]), child, output: () => output, stop });
    });
  });
}
