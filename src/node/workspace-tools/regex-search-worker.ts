import { Worker } from 'node:worker_threads';

/**
 * The worker's code, run with `eval: true` (no file to locate next to the bundle). It compiles
 * the pattern once and answers each text with the indexes of its matching lines, split exactly
 * as the caller splits them (`\r?\n`, a final empty line dropped).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regexp = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', ({ id, text }) => {
  const lines = text.split(/\\r?\\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const matches = [];
  for (let index = 0; index < lines.length; index++) if (regexp.test(lines[index])) matches.push(index);
  parentPort.postMessage({ id, matches });
});
`;

/** Why a search stopped before it finished. */
export class RegexSearchStopped extends Error {
  constructor(readonly reason: 'timeout' | 'aborted') {
    super(reason === 'timeout' ? 'the regular expression took too long' : 'the search was interrupted');
  }
}

/** Options of {@link RegexSearchWorker}. */
export interface RegexSearchWorkerOptions {
  /** The user's pattern, compiled in the worker (never on the main thread's event loop). */
  regexp: RegExp;
  /** The whole search (all files) must finish within this many milliseconds. */
  timeoutMs: number;
  /** Stops the search at once. */
  signal: AbortSignal;
}

/**
 * Runs a user-supplied regular expression in a worker thread with a deadline: a pattern with
 * catastrophic backtracking (`^(a+)+$`) cannot block the event loop, and the worker is
 * terminated (stopping the match mid-way) when the deadline passes or the signal aborts.
 */
export class RegexSearchWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (matches: number[]) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private stopped: RegexSearchStopped | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.stop(new RegexSearchStopped('aborted'));
  private readonly signal: AbortSignal;

  constructor(options: RegexSearchWorkerOptions) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { source: options.regexp.source, flags: options.regexp.flags.replace(/[gy]/g, '') } });
    this.worker.unref();
    this.worker.on('message', ({ id, matches }: { id: number; matches: number[] }) => {
      this.pending.get(id)?.resolve(matches);
      this.pending.delete(id);
    });
    this.worker.on('error', (error) => this.stop(error));
    this.timer = setTimeout(() => this.stop(new RegexSearchStopped('timeout')), options.timeoutMs);
    this.timer.unref();
    this.signal = options.signal;
    if (options.signal.aborted) this.onAbort();
    else options.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The indexes of the lines of `text` that match. */
  matchingLines(text: string): Promise<number[]> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, text });
    });
  }

  private stop(error: Error): void {
    if (this.stopped) return;
    this.stopped = error instanceof RegexSearchStopped ? error : new RegexSearchStopped('timeout');
    for (const { reject } of this.pending.values()) reject(error instanceof RegexSearchStopped ? error : this.stopped);
    this.pending.clear();
    void this.close();
  }

  /** Terminates the worker (idempotent). */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.signal.removeEventListener('abort', this.onAbort);
    await this.worker.terminate();
  }
}
