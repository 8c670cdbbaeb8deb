import { Worker } from 'node:worker_threads';

/**
 * The worker's code, run with `eval: true` (no file to locate next to the bundle). It compiles
 * the pattern it is given and answers each text with the indexes of its matching lines, split
 * exactly as the caller splits them (`\r?\n`, a final empty line dropped), or each list of a
 * file's lines with the indexes of those that match, and, for matching lines
 * longer than `longLine`, where the first match starts (`columns`), or each list of texts
 * with the indexes of the texts that match whole.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// Shared with the caller: [0] nanoseconds spent matching so far, [1] when the current message's
// matching started (0 when idle), on the monotonic clock every thread of the process reads, so
// the caller's deadline counts only this thread's work.
const clock = new BigInt64Array(workerData.clock);
const now = () => process.hrtime.bigint();
let regexp;
function answer(message) {
  if (message.type === 'texts') {
    const matches = [];
    for (let index = 0; index < message.texts.length; index++) if (regexp.test(message.texts[index])) matches.push(index);
    return { id: message.id, matches };
  }
  let lines = message.lines;
  if (lines === undefined) {
    lines = message.text.split(/\\r?\\n/);
    if (lines[lines.length - 1] === '') lines.pop();
  }
  const matches = [];
  const columns = {};
  for (let index = 0; index < lines.length; index++) {
    if (!regexp.test(lines[index])) continue;
    matches.push(index);
    if (message.longLine !== undefined && lines[index].length > message.longLine) columns[index] = regexp.exec(lines[index]).index;
  }
  return { id: message.id, matches, columns };
}
parentPort.on('message', (message) => {
  if (message.type === 'pattern') {
    regexp = new RegExp(message.source, message.flags);
    return;
  }
  const started = now();
  Atomics.store(clock, 1, started);
  let answered;
  try {
    answered = answer(message);
  } finally {
    Atomics.add(clock, 0, now() - started);
    Atomics.store(clock, 1, 0n);
  }
  parentPort.postMessage(answered);
});
`;

/** What {@link RegexSearchWorker.lineMatches} found. */
export interface LineMatches {
  /** Indexes of the matching lines. */
  lines: number[];
  /** For matching lines longer than asked: the character index where the first match starts. */
  columns: Record<number, number>;
}

/** A worker and the clock it shares (see WORKER_SOURCE): time spent matching, and since when it is matching now. */
interface SearchThread {
  worker: Worker;
  clock: BigInt64Array;
}

/** Idle workers kept for the next search (starting one costs tens of milliseconds). */
const idleWorkers: SearchThread[] = [];
const MAX_IDLE_WORKERS = 2;

function takeWorker(): SearchThread {
  let thread = idleWorkers.pop();
  if (!thread) {
    const clock = new SharedArrayBuffer(16);
    thread = { worker: new Worker(WORKER_SOURCE, { eval: true, workerData: { clock } }), clock: new BigInt64Array(clock) };
  }
  // Busy, it keeps the process alive (a script awaiting the search must not exit); idle, it does not.
  thread.worker.ref();
  // A new search's deadline starts from nothing.
  Atomics.store(thread.clock, 0, 0n);
  return thread;
}

/** A worker whose search finished normally goes back to the pool; one that was stopped is terminated. */
function returnWorker(thread: SearchThread): void {
  const { worker } = thread;
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.unref();
  if (idleWorkers.length < MAX_IDLE_WORKERS) idleWorkers.push(thread);
  else void worker.terminate();
}

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
  /**
   * The pattern may spend this many milliseconds matching, over the whole search (all files). Only
   * the time the worker spends matching counts (it keeps the count itself), not the time the
   * caller spends finding and reading files, nor the time an answer waits for the caller.
   */
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
  private readonly thread: SearchThread;
  private readonly pending = new Map<number, { resolve: (answer: { matches: number[]; columns?: Record<number, number> }) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private stopped: RegexSearchStopped | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly timeoutMs: number;
  private readonly onAbort = () => this.stop(new RegexSearchStopped('aborted'));
  private readonly signal: AbortSignal;

  constructor(options: RegexSearchWorkerOptions) {
    this.thread = takeWorker();
    this.worker = this.thread.worker;
    this.worker.postMessage({ type: 'pattern', source: options.regexp.source, flags: options.regexp.flags.replace(/[gy]/g, '') });
    this.worker.on('message', ({ id, matches, columns }: { id: number; matches: number[]; columns?: Record<number, number> }) => {
      this.pending.get(id)?.resolve({ matches, ...(columns ? { columns } : {}) });
      this.pending.delete(id);
      if (this.pending.size === 0) this.idle();
    });
    this.worker.on('error', (error) => this.stop(error));
    this.timeoutMs = options.timeoutMs;
    this.signal = options.signal;
    if (options.signal.aborted) this.onAbort();
    else options.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The indexes of the lines of `text` that match. */
  async matchingLines(text: string): Promise<number[]> {
    return (await this.ask({ type: 'text', text })).matches;
  }

  /**
   * The indexes of the lines of a file (its text, split as `utf8Lines` splits it, or its lines)
   * that match, and for those longer than `longLine` characters where the first match starts (a
   * line index to a character index), so a match deep in a huge line can be shown. (A large file
   * goes as its lines: posting them costs a third of posting one large string, which the worker
   * would split again; a small file's text costs less to post than its lines.)
   */
  async lineMatches(file: string | readonly string[], longLine: number): Promise<LineMatches> {
    const { matches, columns } = await this.ask(typeof file === 'string' ? { type: 'text', text: file, longLine } : { type: 'lines', lines: file, longLine });
    return { lines: matches, columns: columns ?? {} };
  }

  /** The indexes of the texts the pattern finds, each tested whole (as `RegExp.test` would). */
  async matchingTexts(texts: readonly string[]): Promise<number[]> {
    return (await this.ask({ type: 'texts', texts })).matches;
  }

  private ask(message: { type: 'text'; text: string; longLine?: number } | { type: 'lines'; lines: readonly string[]; longLine: number } | { type: 'texts'; texts: readonly string[] }): Promise<{ matches: number[]; columns?: Record<number, number> }> {
    if (!this.stopped && this.pending.size === 0) {
      // The worker has texts to match again: the deadline runs for the time still left. Used up
      // (the last answers came in before it was checked), the question is refused as the check would.
      const left = this.timeoutMs - this.matchedMs();
      if (left > 0) this.armDeadline(left);
      else this.stop(new RegexSearchStopped('timeout'));
    }
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  /**
   * The time the worker has spent matching, in milliseconds: what it reported when each text was
   * done, and how long it has been at the current one. Read from the clock it shares, so that the
   * time an answer waits for this thread (reading other files, walking directories) is not counted.
   */
  private matchedMs(): number {
    const spent = Atomics.load(this.thread.clock, 0);
    const since = Atomics.load(this.thread.clock, 1);
    // The process's monotonic clock (the worker's too), which a caller's fake timers leave alone.
    const running = since === 0n ? 0n : process.hrtime.bigint() - since;
    return Number(spent + (running > 0n ? running : 0n)) / 1e6;
  }

  /** Checks the deadline in `leftMs`, when the worker may have matched for `timeoutMs`. */
  private armDeadline(leftMs: number): void {
    this.timer = setTimeout(() => this.checkDeadline(), leftMs);
    this.timer.unref();
  }

  /** Stops the search once the worker has matched for `timeoutMs`; until then waits for what is left. */
  private checkDeadline(): void {
    const left = this.timeoutMs - this.matchedMs();
    if (left > 0) this.armDeadline(left);
    else this.stop(new RegexSearchStopped('timeout'));
  }

  /** The worker answered everything asked: the deadline pauses. */
  private idle(): void {
    clearTimeout(this.timer);
  }

  private stop(error: Error): void {
    if (this.stopped) return;
    this.stopped = error instanceof RegexSearchStopped ? error : new RegexSearchStopped('timeout');
    for (const { reject } of this.pending.values()) reject(error instanceof RegexSearchStopped ? error : this.stopped);
    this.pending.clear();
    void this.close();
  }

  /** Ends the search: the worker goes back to the pool, or is terminated when it was stopped mid-match (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.signal.removeEventListener('abort', this.onAbort);
    if (this.stopped || this.pending.size > 0) await this.worker.terminate();
    else returnWorker(this.thread);
  }

  private closed = false;
}
