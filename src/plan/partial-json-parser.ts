import { checkOptions, oneOf, type OptionsSpec } from '../options/index.js';
import { setOwnField } from '../model/set-own-field.js';

/** `T` with every field, at any depth, possibly missing (a value still streaming). */
export type DeepPartial<T> = T extends Array<infer Item>
  ? Array<DeepPartial<Item>>
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** Parses JSON while it streams in. Create one with {@link createPartialJsonParser}. */
export interface PartialJsonParser<T = unknown> {
  /**
   * Adds a text delta (split anywhere: inside strings, escapes, numbers) and returns the best
   * value so far, or `undefined` before the JSON has begun. Each delta is read once: the cost of
   * a stream is linear in its length (plus a shallow copy of the containers still open).
   */
  push(delta: string): DeepPartial<T> | undefined;
  /** The best value so far (a new object after each change; earlier values are never modified). */
  readonly value: DeepPartial<T> | undefined;
  /** The top-level value has closed; later text is ignored. */
  readonly complete: boolean;
  /** Everything pushed so far. */
  readonly text: string;
  /** Forgets everything, to parse a new answer. */
  reset(): void;
}

/** Options of {@link createPartialJsonParser}. */
export interface PartialJsonParserOptions {
  /**
   * What the JSON's top-level value may be. With `'object'`, only a `{` followed by `"` or `}`
   * begins the JSON, so a markdown checkbox (`- [ ] step`) or a citation (`as noted [1]`) in the
   * prose before it is passed over; with `'object-or-array'`, a `[` followed by the start of a
   * value or `]` begins it too (prose brackets such as `[draft]` are still passed over).
   * @default 'object'
   */
  root?: 'object' | 'object-or-array';
}

/** An object or array still open, with where it sits in its parent. */
interface Frame {
  container: Record<string, unknown> | unknown[];
  /** The key or index of this container in its parent (unused for the root). */
  slot: string | number;
  /** The container is part of a value already returned: copy it before changing it. */
  shared: boolean;
  /** What comes next inside it. */
  expect: 'key-or-close' | 'key' | 'colon' | 'value-or-close' | 'value' | 'comma-or-close';
  /** For objects: the key whose value comes next. */
  key?: string;
}

/** A string being read: its text so far, and whether it is a key. */
interface OpenString {
  text: string;
  isKey: boolean;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_CHARS = /[\d.eE+-]/;
const LITERALS: ReadonlyArray<readonly [string, boolean | null]> = [['true', true], ['false', false], ['null', null]];


/**
 * Where the JSON begins: the first `{` followed by `"` or `}`, or (when arrays may be the root)
 * `[` followed by the start of a value or `]`, so prose such as "a [draft]" or "{curly}" is
 * passed over. `-1` while unknown.
 */
function findStart(text: string, arrays: boolean): number {
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char !== '{' && (char !== '[' || !arrays)) continue;
    let next = index + 1;
    while (next < text.length && WHITESPACE.has(text[next] as string)) next++;
    if (next >= text.length) return -1; // wait for the next character to decide
    const following = text[next] as string;
    if (char === '{' ? following === '"' || following === '}' : /[{["\-0-9tfn\]]/.test(following)) return index;
  }
  return -1;
}

const OPTIONS: OptionsSpec<PartialJsonParserOptions> = { root: oneOf(['object', 'object-or-array']) };

/**
 * A parser for JSON arriving as text deltas (a model streaming its plan), returning the best
 * partial value after each delta so a host can render a plan card while it streams. Prose and
 * code fences around the JSON are ignored; the JSON must be an object unless `root` allows an
 * array. Every value returned is consistent with the final one: strings are prefixes of their
 * final text, numbers, booleans, `null` and keys appear only once complete, and nothing that
 * appeared disappears later. At a syntax error the value freezes.
 *
 * The parser is incremental: each character is read once, and each change copies only the
 * objects and arrays still open (the path to the value being read), never the closed ones.
 * @example
 * const parser = createPartialJsonParser<StructuredPlan>();
 * for await (const event of run) {
 *   if (event.type === 'text-delta') render(parser.push(event.text));
 *   if (event.type === 'stream-retry') parser.reset(); // the turn starts over: its text so far is void
 * }
 */
export function createPartialJsonParser<T = unknown>(options: PartialJsonParserOptions = {}): PartialJsonParser<T> {
  checkOptions<PartialJsonParserOptions>(options, OPTIONS, { owner: 'createPartialJsonParser', optional: true });
  const arrays = options.root === 'object-or-array';
  let text = '';
  /** Text not read yet: before the start, the part that may still hold it; after, what is waiting for more. */
  let pending = '';
  let started = false;
  let root: Record<string, unknown> | unknown[] | undefined;
  let frames: Frame[] = [];
  let openString: OpenString | undefined;
  let complete = false;
  /** A syntax error: nothing more is read. */
  let frozen = false;

  /** Makes every open container safe to change (copies the shared ones, root first). */
  const own = (): void => {
    for (let depth = 0; depth < frames.length; depth++) {
      const frame = frames[depth] as Frame;
      if (!frame.shared) continue;
      frame.container = Array.isArray(frame.container) ? frame.container.slice() : { ...frame.container };
      frame.shared = false;
      if (depth === 0) root = frame.container;
      else attach((frames[depth - 1] as Frame).container, frame.slot, frame.container);
    }
  };

  const attach = (container: Frame['container'], slot: string | number, value: unknown): void => {
    if (Array.isArray(container)) container[slot as number] = value;
    else setOwnField(container, slot as string, value);
  };

  /** Puts a value (complete, or a string still growing) in the slot the innermost frame is filling. */
  const place = (value: unknown): void => {
    own();
    attach((frames[frames.length - 1] as Frame).container, nextSlot(), value);
  };

  /** The slot of the next value in the innermost frame. */
  const nextSlot = (): string | number => {
    const frame = frames[frames.length - 1];
    if (!frame) return '';
    return Array.isArray(frame.container) ? frame.container.length : (frame.key as string);
  };

  const afterValue = (): void => {
    const frame = frames[frames.length - 1];
    if (frame) frame.expect = 'comma-or-close';
  };

  /** Opens an object or array as a value (or the root). */
  const open = (container: Frame['container']): void => {
    const slot = nextSlot();
    if (frames.length === 0) root = container;
    else {
      own();
      attach((frames[frames.length - 1] as Frame).container, slot, container);
    }
    frames.push({ container, slot, shared: false, expect: Array.isArray(container) ? 'value-or-close' : 'key-or-close' });
  };

  const close = (): void => {
    frames.pop();
    if (frames.length === 0) complete = true;
    else afterValue();
  };

  /** Reads a string's characters from `index`; returns where it stopped (at the closing quote's end, or where more text is needed). */
  const readString = (input: string, index: number, string: OpenString, slot: string | number): number => {
    let chunkStart = index;
    for (;;) {
      while (index < input.length && input[index] !== '"' && input[index] !== '\\') index++;
      string.text += input.slice(chunkStart, index);
      if (index >= input.length) break;
      if (input[index] === '"') {
        index++;
        finishString(string, slot);
        return index;
      }
      const escape = input[index + 1];
      if (escape === undefined) break;
      if (escape === 'u') {
        const hex = input.slice(index + 2, index + 6);
        if (!/^[0-9a-fA-F]*$/.test(hex)) return fail();
        if (hex.length < 4) break;
        string.text += String.fromCharCode(parseInt(hex, 16));
        index += 6;
      } else {
        const decoded = ESCAPES[escape];
        if (decoded === undefined) return fail();
        string.text += decoded;
        index += 2;
      }
      chunkStart = index;
    }
    // More text is needed; a value string shows what it has so far.
    if (!string.isKey) showString(string, slot);
    return index;
  };

  const showString = (string: OpenString, slot: string | number): void => {
    own();
    attach((frames[frames.length - 1] as Frame).container, slot, string.text);
  };

  const finishString = (string: OpenString, slot: string | number): void => {
    openString = undefined;
    const frame = frames[frames.length - 1] as Frame;
    if (string.isKey) {
      frame.key = string.text;
      frame.expect = 'colon';
      return;
    }
    showString(string, slot);
    afterValue();
  };

  const fail = (): number => {
    frozen = true;
    return -1;
  };

  /** The slot an open value string fills, fixed when it opened. */
  let stringSlot: string | number = '';

  /** Reads as much of `input` as it can; returns the index of the first character not read, or -1 after a syntax error. */
  const read = (input: string): number => {
    let index = 0;
    if (openString) {
      index = readString(input, index, openString, stringSlot);
      if (index === -1 || openString) return index;
    }
    while (index < input.length && !complete) {
      const char = input[index] as string;
      if (WHITESPACE.has(char)) {
        index++;
        continue;
      }
      const frame = frames[frames.length - 1];
      const expect = frame?.expect ?? 'value';
      if (expect === 'colon') {
        if (char !== ':') return fail();
        (frame as Frame).expect = 'value';
        index++;
        continue;
      }
      if (expect === 'comma-or-close') {
        const isArray = Array.isArray((frame as Frame).container);
        if (char === ',') (frame as Frame).expect = isArray ? 'value' : 'key';
        else if (char === (isArray ? ']' : '}')) close();
        else return fail();
        index++;
        continue;
      }
      if (expect === 'key' || expect === 'key-or-close') {
        if (char === '}' && expect === 'key-or-close') {
          close();
          index++;
          continue;
        }
        if (char !== '"') return fail();
        openString = { text: '', isKey: true };
        index = readString(input, index + 1, openString, '');
        if (index === -1 || openString) return index;
        continue;
      }
      // A value, or right after `[` the close.
      if (char === ']' && expect === 'value-or-close') {
        close();
        index++;
        continue;
      }
      if (char === '{' || char === '[') {
        open(char === '{' ? {} : []);
        index++;
        continue;
      }
      if (char === '"') {
        stringSlot = nextSlot();
        openString = { text: '', isKey: false };
        index = readString(input, index + 1, openString, stringSlot);
        if (index === -1 || openString) return index;
        continue;
      }
      const literal = LITERALS.find(([word]) => input.startsWith(word, index));
      if (literal) {
        place(literal[1]);
        afterValue();
        index += literal[0].length;
        continue;
      }
      if (LITERALS.some(([word]) => word.startsWith(input.slice(index)))) return index;
      // A number is final only once a delimiter follows it ("12" may become "123").
      let end = index;
      while (end < input.length && NUMBER_CHARS.test(input[end] as string)) end++;
      if (end >= input.length) return index;
      const token = input.slice(index, end);
      if (!NUMBER.test(token)) return fail();
      place(Number(token));
      afterValue();
      index = end;
    }
    return index;
  };

  const markShared = (): void => {
    for (const frame of frames) frame.shared = true;
  };

  const current = (): DeepPartial<T> | undefined => root as DeepPartial<T> | undefined;

  return {
    push(delta) {
      if (typeof delta !== 'string' || delta.length === 0 || complete || frozen) return current();
      text += delta;
      pending += delta;
      if (!started) {
        const start = findStart(pending, arrays);
        if (start === -1) {
          // Keep only what may still begin the JSON: the last character that is not whitespace.
          let keep = pending.length - 1;
          while (keep > 0 && WHITESPACE.has(pending[keep] as string)) keep--;
          pending = pending.slice(Math.max(0, keep));
          return current();
        }
        started = true;
        pending = pending.slice(start);
      }
      const stoppedAt = read(pending);
      pending = stoppedAt === -1 ? '' : pending.slice(stoppedAt);
      // What was returned must never change: the next change copies the open containers first.
      markShared();
      return current();
    },
    get value() {
      return current();
    },
    get complete() {
      return complete;
    },
    get text() {
      return text;
    },
    reset() {
      text = '';
      pending = '';
      started = false;
      root = undefined;
      frames = [];
      openString = undefined;
      complete = false;
      frozen = false;
    },
  };
}
