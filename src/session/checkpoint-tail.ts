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

/**
 * Where the library writes an entry's `kind`: before its content, within the first characters of
 * its JSON (after the ids, the time, and the session's and agent's ids of up to 200 bytes each).
 */
export const KIND_WITHIN = 1024;

/** What the beginning of a checkpoint's JSON holds, as the library writes it (no spaces). */
export const CHECKPOINT_KIND = '"kind":"checkpoint"';

/**
 * Candidates tried, last first, before a load gives up and reads the whole transcript: entries
 * whose beginning holds the kind without being a checkpoint (a tool input `{"kind":"checkpoint"}`)
 * are parsed to tell, and so must be few, or looking would cost more than it saves.
 */
export const MAX_CANDIDATES_TRIED = 16;

/**
 * Transcripts smaller than this (bytes in a file, characters in memory) are read whole even when
 * a load asks to start at a checkpoint: looking for it first costs about what it would save.
 */
export const TAIL_MIN_SIZE = 256 * 1024;

/**
 * The stored entries of a session from the last `checkpoint` a load may start at, for stores that
 * honor `SessionLoadOptions.fromCheckpoint`: fed every entry's text in order, it keeps them all
 * unparsed, and once they are all in, parses the texts that may be a checkpoint (their beginning
 * holds `"kind":"checkpoint"`, as the library writes an entry's kind), last first (at most
 * {@link MAX_CANDIDATES_TRIED} of them), and the text before each, until one is a checkpoint a
 * load may start at:
 * - of the agent asked for (by default the agent of the first entry, as `foldEntries` folds);
 * - with a `seq`, directly following the entry stored before it: a `seq` one more than that
 *   entry's and a `parentId` that is its `id`. An entry copied, moved or numbered again around
 *   it is then seen by the load (which reads what follows), not hidden in what it skips;
 * - no copy of an earlier candidate (its `"id":"…"` in that one's beginning): a load that sees
 *   the original skips the copy, so starting at it would drop everything after the original.
 * A text before that checkpoint is never parsed nor judged: a line that would not parse, or an
 * entry the load would refuse, is simply not read; one after it is read as before. Missing a
 * checkpoint (its kind written late in the object, or with escapes) costs only time: the load
 * then starts earlier.
 */
export class CheckpointTail {
  readonly #hint: NonNullable<SessionLoadOptions['fromCheckpoint']>;
  readonly #parse: (text: string) => unknown;
  readonly #lines: TailLine[] = [];
  /** Indexes in {@link #lines} of the texts that may be a checkpoint. */
  readonly #candidates: number[] = [];

  /**
   * @param hint - the load's `fromCheckpoint`.
   * @param parse - parses an entry's text (the store's own reading: a BOM-free line), returning
   *   undefined for one that does not parse.
   */
  constructor(hint: NonNullable<SessionLoadOptions['fromCheckpoint']>, parse: (text: string) => unknown) {
    this.#hint = hint;
    this.#parse = parse;
  }

  /** Adds the next stored entry's text. */
  add(text: string, place: number): void {
    const index = this.#lines.push({ text, place }) - 1;
    if (index > 0 && headOf(text).includes(CHECKPOINT_KIND)) this.#candidates.push(index);
  }

  /** The texts from the last checkpoint a load may start at (or all of them), in order. */
  lines(): readonly TailLine[] {
    const candidates = this.#candidates;
    if (candidates.length === 0) return this.#lines;
    const agent = this.#targetAgent();
    if (agent === null) return this.#lines;
    for (let at = candidates.length - 1; at >= Math.max(0, candidates.length - MAX_CANDIDATES_TRIED); at--) {
      const index = candidates[at]!;
      if (!this.#startsTail(index, agent)) continue;
      // A copy of an earlier checkpoint (stored again under a new number) is skipped by a load that
      // sees the original: one is never started at.
      const idField = idFieldOf(this.#parsed(this.#lines[index]!));
      if (candidates.slice(0, at).some((earlier) => headOf(this.#lines[earlier]!.text).includes(idField))) continue;
      return this.#lines.slice(index);
    }
    return this.#lines;
  }

  #parsed(line: TailLine): unknown {
    if (!('parsed' in line)) line.parsed = this.#parse(line.text);
    return line.parsed;
  }

  #startsTail(index: number, agent: CheckpointAgent): boolean {
    const entry = this.#parsed(this.#lines[index]!);
    return isCheckpointStart(entry, agent) && isEntryBefore(this.#parsed(this.#lines[index - 1]!), entry);
  }

  /** The agent whose checkpoints count; null when it cannot be told (a first entry that does not parse). */
  #targetAgent(): CheckpointAgent | null {
    return checkpointAgent(this.#hint, () => this.#parsed(this.#lines[0]!));
  }
}

/**
 * The texts a load with `hint` reads, from a store that holds its entries as texts in order (the
 * memory store, a Redis list): all of them when they total under {@link TAIL_MIN_SIZE}
 * characters, else those from the last checkpoint a load may start at (see {@link CheckpointTail}).
 * @param parse - parses an entry's text, returning undefined for one that does not parse.
 * @param firstPlace - the place (seq) of the first text.
 */
export function textsFromCheckpoint(texts: readonly string[], hint: NonNullable<SessionLoadOptions['fromCheckpoint']>, parse: (text: string) => unknown, firstPlace = 1): readonly TailLine[] {
  let length = 0;
  for (const text of texts) length += text.length;
  if (length < TAIL_MIN_SIZE) return texts.map((text, index) => ({ text, place: firstPlace + index }));
  const tail = new CheckpointTail(hint, parse);
  texts.forEach((text, index) => tail.add(text, firstPlace + index));
  return tail.lines();
}

/** The agent whose checkpoints a load may start at: `{ id: undefined }` is the main agent. */
export type CheckpointAgent = { id: string | undefined };

/**
 * The agent whose checkpoints count for `hint`: the one it names, else the agent of the first
 * entry (`first()`, parsed); null when that cannot be told (a first entry that does not parse).
 */
export function checkpointAgent(hint: NonNullable<SessionLoadOptions['fromCheckpoint']>, first: () => unknown): CheckpointAgent | null {
  if (hint.agentId !== undefined) return { id: hint.agentId };
  const entry = first();
  if (!isRecord(entry)) return null;
  const { agentId } = entry;
  return agentId === undefined || typeof agentId === 'string' ? { id: agentId } : null;
}

/** The beginning of an entry's text, where the library writes its id and kind. */
function headOf(text: string): string {
  return text.length > KIND_WITHIN ? text.slice(0, KIND_WITHIN) : text;
}

/**
 * The `"id":"…"` field of a checkpoint start as the library writes it: a copy of it stored earlier
 * holds the same text at its beginning.
 */
export function idFieldOf(entry: unknown): string {
  return `"id":${JSON.stringify((entry as { id?: unknown }).id)}`;
}

/** Whether `entry` (a parsed stored entry) is a checkpoint of `agent` with a `seq` past the first and a `parentId`. */
export function isCheckpointStart(entry: unknown, agent: CheckpointAgent): entry is { seq: number; parentId: string } {
  if (!isRecord(entry) || entry.kind !== 'checkpoint' || entry.agentId !== agent.id) return false;
  const { seq, parentId } = entry;
  return typeof seq === 'number' && Number.isInteger(seq) && seq > 1 && typeof parentId === 'string';
}

/** Whether `before` (the parsed entry stored right before `entry`) is the entry `entry` follows: `entry`'s seq is one more, its parentId `before`'s id. */
export function isEntryBefore(before: unknown, entry: { seq: number; parentId: string }): boolean {
  return isRecord(before) && before.seq === entry.seq - 1 && before.id === entry.parentId;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
