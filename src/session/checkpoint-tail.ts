import type { SessionLoadOptions } from './session-store.js';

/** One stored entry's text, its place (a line number, an index) and, once parsed, its value. */
export interface TailLine {
  /** The entry's JSON, as stored. */
  text: string;
  /** Where it is stored: a file's line number, a store's position (for warnings). */
  place: number;
  /** The parsed value, when the tail parsed it already (a checkpoint's or the line before it). */
  parsed?: unknown;
}

type Agent = { id: string | undefined };

/**
 * The stored entries of a session from the last `checkpoint` a load may start at, for stores that
 * honor `SessionLoadOptions.fromCheckpoint`: fed every entry's text in order, it parses only the
 * texts that may be a checkpoint (they hold `"checkpoint"`; the library writes no other) and the
 * text before each, and keeps the texts from the last checkpoint that
 * - is of the agent asked for (by default the agent of the first entry, as `foldEntries` folds),
 * - has a `seq`, and directly follows the entry stored before it: a `seq` one more than that
 *   entry's and a `parentId` that is its `id`. An entry copied, moved or numbered again around
 *   it is then seen by the load (which reads what follows), not hidden in what it skips.
 * A text that was not parsed is never judged: a line that would not parse, or an entry the load
 * would refuse, before the checkpoint is simply not read; one after it is read as before.
 * Missing a checkpoint (written with escapes, say) costs only time: the load then starts earlier.
 */
export class CheckpointTail {
  readonly #agentId: string | undefined;
  readonly #agentGiven: boolean;
  #agent: Agent | null | undefined;
  #lines: TailLine[] = [];
  #first: TailLine | undefined;
  readonly #parse: (text: string) => unknown;

  /**
   * @param hint - the load's `fromCheckpoint`.
   * @param parse - parses an entry's text (the store's own reading: a BOM-free line), returning
   *   undefined for one that does not parse.
   */
  constructor(hint: NonNullable<SessionLoadOptions['fromCheckpoint']>, parse: (text: string) => unknown) {
    this.#agentGiven = hint.agentId !== undefined;
    this.#agentId = hint.agentId;
    this.#parse = parse;
  }

  /** Adds the next stored entry's text. */
  add(text: string, place: number): void {
    const line: TailLine = { text, place };
    if (this.#first === undefined) {
      this.#first = line;
      this.#lines.push(line);
      return;
    }
    if (text.includes('"checkpoint"') && this.#startsTail(line)) this.#lines = [];
    this.#lines.push(line);
  }

  /** The texts kept: from the last checkpoint found (or the first entry), in order. */
  lines(): readonly TailLine[] {
    return this.#lines;
  }

  #startsTail(line: TailLine): boolean {
    const entry = (line.parsed = this.#parse(line.text));
    if (!isRecord(entry) || entry.kind !== 'checkpoint') return false;
    const agent = this.#targetAgent();
    if (agent === null || entry.agentId !== agent.id) return false;
    const { seq, parentId } = entry;
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 2 || typeof parentId !== 'string') return false;
    const previous = this.#lines[this.#lines.length - 1]!;
    previous.parsed ??= this.#parse(previous.text);
    const before = previous.parsed;
    return isRecord(before) && before.seq === seq - 1 && before.id === parentId;
  }

  /** The agent whose checkpoints count; null when it cannot be told (a first entry that does not parse). */
  #targetAgent(): Agent | null {
    if (this.#agent !== undefined) return this.#agent;
    if (this.#agentGiven) return (this.#agent = { id: this.#agentId });
    const first = this.#first!;
    first.parsed ??= this.#parse(first.text);
    const agentId = isRecord(first.parsed) ? first.parsed.agentId : undefined;
    this.#agent = isRecord(first.parsed) && (agentId === undefined || typeof agentId === 'string') ? { id: agentId } : null;
    return this.#agent;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
