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
   * value so far, or `undefined` before the JSON has begun.
   */
  push(delta: string): DeepPartial<T> | undefined;
  /** The best value so far (a new object after each change). */
  readonly value: DeepPartial<T> | undefined;
  /** The top-level value has closed; later text is ignored. */
  readonly complete: boolean;
  /** Everything pushed so far. */
  readonly text: string;
  /** Forgets everything, to parse a new answer. */
  reset(): void;
}

/** Thrown inside the parser at the end of the text or at a syntax error: what is built so far stands. */
const STOP = Symbol('stop');

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  // A key named __proto__ must become a plain field, as with JSON.parse.
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Parses the JSON value starting at `start` as far as the text goes. Objects and arrays appear as
 * soon as they open, strings grow character by character, and numbers, `true`, `false`, `null`
 * and keys appear only once complete — so each result is consistent with the final value.
 */
function parseFrom(text: string, start: number): { value: unknown; complete: boolean } {
  let index = start;
  let root: unknown;

  const skipWhitespace = (): void => {
    while (index < text.length && WHITESPACE.has(text[index] as string)) index++;
  };

  const parseString = (assign: (value: string) => void): void => {
    index++; // opening quote
    let result = '';
    for (;;) {
      if (index >= text.length) {
        assign(result);
        throw STOP;
      }
      const char = text[index] as string;
      if (char === '"') {
        index++;
        assign(result);
        return;
      }
      if (char !== '\\') {
        result += char;
        index++;
        continue;
      }
      const escape = text[index + 1];
      if (escape === undefined) {
        assign(result);
        throw STOP;
      }
      if (escape === 'u') {
        const hex = text.slice(index + 2, index + 6);
        if (hex.length < 4 || !/^[0-9a-fA-F]{4}$/.test(hex)) {
          assign(result);
          throw STOP;
        }
        result += String.fromCharCode(parseInt(hex, 16));
        index += 6;
        continue;
      }
      const decoded = ESCAPES[escape];
      if (decoded === undefined) {
        assign(result);
        throw STOP;
      }
      result += decoded;
      index += 2;
    }
  };

  const parseKey = (): string => {
    let key: string | undefined;
    const before = index;
    try {
      parseString((value) => {
        key = value;
      });
    } catch (error) {
      index = before;
      throw error;
    }
    return key as string;
  };

  const parseValue = (assign: (value: unknown) => void): void => {
    skipWhitespace();
    if (index >= text.length) throw STOP;
    const char = text[index] as string;
    if (char === '{') {
      const object: Record<string, unknown> = {};
      assign(object);
      index++;
      skipWhitespace();
      if (text[index] === '}') {
        index++;
        return;
      }
      for (;;) {
        skipWhitespace();
        if (text[index] !== '"') throw STOP;
        const key = parseKey();
        skipWhitespace();
        if (text[index] !== ':') throw STOP;
        index++;
        parseValue((value) => setField(object, key, value));
        skipWhitespace();
        if (text[index] === ',') {
          index++;
          continue;
        }
        if (text[index] === '}') {
          index++;
          return;
        }
        throw STOP;
      }
    }
    if (char === '[') {
      const array: unknown[] = [];
      assign(array);
      index++;
      skipWhitespace();
      if (text[index] === ']') {
        index++;
        return;
      }
      for (;;) {
        const slot = array.length;
        parseValue((value) => {
          array[slot] = value;
        });
        skipWhitespace();
        if (text[index] === ',') {
          index++;
          continue;
        }
        if (text[index] === ']') {
          index++;
          return;
        }
        throw STOP;
      }
    }
    if (char === '"') {
      parseString(assign);
      return;
    }
    if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = index;
      const match = NUMBER.exec(text);
      // A number touching the end of the text, or an unfinished part ("1.", "1e", "1e-"), may still
      // grow ("12" → "123"): only a delimiter after it makes it final.
      if (!match || NUMBER.lastIndex >= text.length || /[\d.eE+-]/.test(text[NUMBER.lastIndex] as string)) throw STOP;
      assign(Number(match[0]));
      index = NUMBER.lastIndex;
      return;
    }
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, index)) {
        assign(value);
        index += word.length;
        return;
      }
    }
    throw STOP;
  };

  try {
    parseValue((value) => {
      root = value;
    });
    return { value: root, complete: true };
  } catch (error) {
    if (error !== STOP) throw error;
    return { value: root, complete: false };
  }
}

/**
 * Where the JSON begins: the first `{` followed by `"` or `}`, or `[` followed by the start of a
 * value or `]` (so prose such as "a [draft]" or "{curly}" is passed over). `-1` while unknown.
 */
function findStart(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (char !== '{' && char !== '[') continue;
    let next = index + 1;
    while (next < text.length && WHITESPACE.has(text[next] as string)) next++;
    if (next >= text.length) return -1; // wait for the next character to decide
    const following = text[next] as string;
    if (char === '{' ? following === '"' || following === '}' : /[{["\-0-9tfn\]]/.test(following)) return index;
  }
  return -1;
}

/**
 * A parser for JSON arriving as text deltas (a model streaming its plan), returning the best
 * partial value after each delta so a host can render a plan card while it streams. Prose and
 * code fences around the JSON are ignored. Every value returned is consistent with the final
 * one: strings are prefixes of their final text, numbers, booleans, `null` and keys appear only
 * once complete, and nothing that appeared disappears later.
 * @example
 * const parser = createPartialJsonParser<StructuredPlan>();
 * for await (const event of run) if (event.type === 'text-delta') render(parser.push(event.text));
 */
export function createPartialJsonParser<T = unknown>(): PartialJsonParser<T> {
  let text = '';
  let start = -1;
  let searchedTo = 0;
  let value: DeepPartial<T> | undefined;
  let complete = false;

  return {
    push(delta) {
      if (complete || delta.length === 0) return value;
      text += delta;
      if (start === -1) {
        start = findStart(text, searchedTo);
        // Resume the search where it can still succeed: the last character may be an opener.
        if (start === -1) searchedTo = Math.max(0, text.length - 1 - trailingWhitespace(text));
        if (start === -1) return value;
      }
      const parsed = parseFrom(text, start);
      value = parsed.value as DeepPartial<T> | undefined;
      complete = parsed.complete;
      return value;
    },
    get value() {
      return value;
    },
    get complete() {
      return complete;
    },
    get text() {
      return text;
    },
    reset() {
      text = '';
      start = -1;
      searchedTo = 0;
      value = undefined;
      complete = false;
    },
  };
}

function trailingWhitespace(text: string): number {
  let count = 0;
  while (count < text.length && WHITESPACE.has(text[text.length - 1 - count] as string)) count++;
  return count;
}
