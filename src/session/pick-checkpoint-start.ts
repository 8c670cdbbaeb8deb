import type { SessionLoadOptions } from './session-store.js';

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
const MAX_CANDIDATES_TRIED = 16;

/**
 * Transcripts smaller than this (bytes in a file, characters in memory) are read whole even when
 * a load asks to start at a checkpoint: looking for it first costs about what it would save.
 */
export const TAIL_MIN_SIZE = 256 * 1024;

/** How a store reads what {@link pickCheckpointStart} looks at, for candidates of type `C`. */
export interface CheckpointReads<C> {
  /** The session's first entry, parsed (read only when the hint names no agent). */
  first(): unknown;
  /** The candidate's entry, parsed (undefined when it does not parse). */
  entry(candidate: C): unknown;
  /** The entry stored right before the candidate's, parsed: read only when the candidate's own qualifies. */
  before(candidate: C): unknown;
  /** Whether `entry` (a checkpoint that qualifies otherwise) is a copy of one of the `earlier` candidates. */
  copied(entry: { id?: unknown }, earlier: readonly C[]): boolean;
  /** The `seq` the candidate's entry must carry, for a store that keeps entries by number. @default not checked */
  seqOf?(candidate: C): number;
}

/**
 * How a store reads what {@link pickLastCheckpoint} looks at: as {@link CheckpointReads}, but a
 * copy is looked for by the candidate alone, as the candidates before it are not listed.
 */
export interface LastCheckpointReads<C> extends Omit<CheckpointReads<C>, 'copied'> {
  /**
   * Whether `entry` (a checkpoint that qualifies otherwise, the entry of `candidate`) may be a copy
   * of an entry stored before it: true when that cannot be told, so the candidate is passed over.
   */
  copied(entry: { id?: unknown }, candidate: C): boolean | Promise<boolean>;
}

/**
 * The candidate a load asked for `fromCheckpoint` may start at, and its entry: of `candidates`
 * (the entries whose beginning holds `"kind":"checkpoint"`, in order), last first (at most
 * {@link MAX_CANDIDATES_TRIED} of them), the first that is a checkpoint
 * - of the agent asked for (by default the agent of the first entry, as `foldEntries` folds);
 * - with a `seq`, directly following the entry stored before it: a `seq` one more than that
 *   entry's and a `parentId` that is its `id`. An entry copied, moved or numbered again around
 *   it is then seen by the load (which reads what follows), not hidden in what it skips;
 * - no copy of an earlier candidate: a load that sees the original skips the copy, so starting at
 *   it would drop everything after the original.
 * Only those candidates, the entries before them and the first entry are read. Undefined when none
 * qualifies: the load reads the whole transcript. A checkpoint missed as a candidate (its kind
 * written late in the object, or with escapes) costs only time: the load then starts earlier.
 * What is before the checkpoint is never read nor judged.
 */
export async function pickCheckpointStart<C>(candidates: readonly C[], hint: NonNullable<SessionLoadOptions['fromCheckpoint']>, reads: CheckpointReads<C>): Promise<{ candidate: C; entry: object } | undefined> {
  const lastFirst = function* () {
    for (let at = candidates.length - 1; at >= 0; at--) yield at;
  };
  const start = await pickLastCheckpoint(lastFirst(), hint, {
    first: () => reads.first(),
    entry: (at) => reads.entry(candidates[at]!),
    before: (at) => reads.before(candidates[at]!),
    copied: (entry, at) => reads.copied(entry, candidates.slice(0, at)),
    ...(reads.seqOf && { seqOf: (at: number) => reads.seqOf!(candidates[at]!) }),
  });
  return start && { candidate: candidates[start.candidate]!, entry: start.entry };
}

/**
 * {@link pickCheckpointStart} over candidates handed over last first, as a store finds them
 * reading back from its last entry: none is asked for past the one picked, nor past the
 * {@link MAX_CANDIDATES_TRIED} tried. A copy is told by {@link LastCheckpointReads.copied}.
 */
export async function pickLastCheckpoint<C>(
  lastFirst: Iterable<C> | AsyncIterable<C>,
  hint: NonNullable<SessionLoadOptions['fromCheckpoint']>,
  reads: LastCheckpointReads<C>,
): Promise<{ candidate: C; entry: object } | undefined> {
  let agent: CheckpointAgent | null | undefined;
  let tried = 0;
  for await (const candidate of lastFirst) {
    agent ??= await checkpointAgent(hint, () => reads.first());
    if (agent === null || tried++ === MAX_CANDIDATES_TRIED) return undefined;
    const entry = await reads.entry(candidate);
    if (!isCheckpointStart(entry, agent) || (reads.seqOf !== undefined && entry.seq !== reads.seqOf(candidate)) || !isEntryBefore(await reads.before(candidate), entry)) continue;
    if (await reads.copied(entry, candidate)) continue;
    return { candidate, entry };
  }
  return undefined;
}

/** Where a load of texts in order (the memory store) starts: {@link textsFromCheckpoint}. */
export interface TextsStart {
  /** The index of the first text to read: 0 for all of them. */
  start: number;
  /** The entry at `start`, parsed already (the checkpoint picked); undefined when it was not. */
  entry?: object;
}

/**
 * Where a load with `hint` starts in texts held in order (the memory store, for a transcript of at
 * least {@link TAIL_MIN_SIZE} characters): at the checkpoint {@link pickCheckpointStart} picks of
 * `candidates`, else at 0 (all of them). Parses only what that reads; copies nothing.
 * @param candidates - the indexes of the texts past the first that {@link holdsCheckpointKind}, in order.
 * @param parse - parses an entry's text, returning undefined for one that does not parse.
 */
export async function textsFromCheckpoint(
  texts: readonly string[],
  candidates: readonly number[],
  hint: NonNullable<SessionLoadOptions['fromCheckpoint']>,
  parse: (text: string) => unknown,
): Promise<TextsStart> {
  const parsedAt = new Map<number, unknown>();
  const parsed = (index: number): unknown => {
    if (!parsedAt.has(index)) parsedAt.set(index, parse(texts[index]!));
    return parsedAt.get(index);
  };
  const start = await pickCheckpointStart(candidates, hint, {
    first: () => parsed(0),
    entry: (index) => parsed(index),
    before: (index) => parsed(index - 1),
    copied: (entry, earlier) => {
      const field = idFieldOf(entry);
      return earlier.some((index) => holdsNearStart(texts[index]!, field));
    },
  });
  return start === undefined ? { start: 0 } : { start: start.candidate, entry: start.entry };
}

/** The agent whose checkpoints a load may start at: `{ id: undefined }` is the main agent. */
type CheckpointAgent = { id: string | undefined };

/**
 * The agent whose checkpoints count for `hint`: the one it names, else the agent of the first
 * entry (`first()`, parsed); null when that cannot be told (a first entry that does not parse).
 */
async function checkpointAgent(hint: NonNullable<SessionLoadOptions['fromCheckpoint']>, first: () => unknown): Promise<CheckpointAgent | null> {
  if (hint.agentId !== undefined) return { id: hint.agentId };
  const entry = await first();
  if (!isRecord(entry)) return null;
  const { agentId } = entry;
  return agentId === undefined || typeof agentId === 'string' ? { id: agentId } : null;
}

/** Whether an entry's text may be a checkpoint: its first {@link KIND_WITHIN} characters hold {@link CHECKPOINT_KIND}. */
export function holdsCheckpointKind(text: string): boolean {
  return holdsNearStart(text, CHECKPOINT_KIND);
}

/**
 * Whether `needle` is within the first {@link KIND_WITHIN} characters of `text` (where the library
 * writes an entry's id and kind): nothing past them is searched (a view of them, not a copy).
 */
function holdsNearStart(text: string, needle: string): boolean {
  return (text.length > KIND_WITHIN ? text.slice(0, KIND_WITHIN) : text).includes(needle);
}

/**
 * The `"id":"…"` field of a checkpoint start as the library writes it: a copy of it stored earlier
 * holds the same text at its beginning.
 */
export function idFieldOf(entry: { id?: unknown }): string {
  return `"id":${JSON.stringify(entry.id)}`;
}

/** Whether `entry` (a parsed stored entry) is a checkpoint of `agent` with a `seq` past the first and a `parentId`. */
function isCheckpointStart(entry: unknown, agent: CheckpointAgent): entry is { seq: number; parentId: string; id?: unknown } {
  if (!isRecord(entry) || entry.kind !== 'checkpoint' || entry.agentId !== agent.id) return false;
  const { seq, parentId } = entry;
  return typeof seq === 'number' && Number.isInteger(seq) && seq > 1 && typeof parentId === 'string';
}

/** Whether `before` (the parsed entry stored right before `entry`) is the entry `entry` follows: `entry`'s seq is one more, its parentId `before`'s id. */
function isEntryBefore(before: unknown, entry: { seq: number; parentId: string }): boolean {
  return isRecord(before) && before.seq === entry.seq - 1 && before.id === entry.parentId;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
