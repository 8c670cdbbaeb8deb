/** The result of {@link isJsonPrefix}. */
export interface JsonPrefixCheck {
  /** The text from `start` to the end is the beginning of a JSON value (complete or not). */
  prefix: boolean;
  /** How many characters were read before deciding (prose fails within a few). */
  read: number;
}

const NUMBER_WHOLE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_START = /^-?(?:0|[1-9]\d*)?(?:\.\d*)?(?:[eE][+-]?\d*)?$/;
const LITERALS = ['true', 'false', 'null'];
const ESCAPE_CHARS = '"\\/bfnrtu';

function isWhitespace(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}

/**
 * Whether the text from `start` (an opening `{` or `[`) to the end could be the beginning of a
 * JSON value cut off by the end of the text: every token is valid JSON so far. Tells a cut-off
 * answer (`{"goal": "x", "steps": [`) from a stray bracket in prose (`I considered { but`), and
 * gives up at the first character JSON would not allow, so prose costs only a few characters.
 */
export function isJsonPrefix(text: string, start: number): JsonPrefixCheck {
  const stack: string[] = [];
  /** What may come next: a value, a key, the colon, or what follows a value. */
  let expect: 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'after' = 'value';
  let index = start;
  const fail = (): JsonPrefixCheck => ({ prefix: false, read: index - start + 1 });
  while (index < text.length) {
    const char = text[index] as string;
    if (isWhitespace(char)) {
      index++;
      continue;
    }
    if (expect === 'colon') {
      if (char !== ':') return fail();
      expect = 'value';
      index++;
      continue;
    }
    if (expect === 'after') {
      if (stack.length === 0) return fail();
      const top = stack[stack.length - 1];
      if (char === ',') expect = top === '{' ? 'key' : 'value';
      else if ((char === '}' && top === '{') || (char === ']' && top === '[')) stack.pop();
      else return fail();
      index++;
      continue;
    }
    if (expect === 'key' || expect === 'key-or-close') {
      if (char === '}' && expect === 'key-or-close') {
        stack.pop();
        expect = 'after';
        index++;
        continue;
      }
      if (char !== '"') return fail();
      const end = skipString(text, index);
      if (end === -1) return fail();
      index = end;
      expect = 'colon';
      continue;
    }
    // A value (or, right after `[`, the close).
    if (char === ']' && expect === 'value-or-close') {
      stack.pop();
      expect = 'after';
      index++;
      continue;
    }
    if (char === '{' || char === '[') {
      stack.push(char);
      expect = char === '{' ? 'key-or-close' : 'value-or-close';
      index++;
      continue;
    }
    let end: number;
    if (char === '"') {
      end = skipString(text, index);
      if (end === -1) return fail();
    } else {
      end = index;
      while (end < text.length && /[\w.+-]/.test(text[end] as string)) end++;
      const token = text.slice(index, end);
      const atEnd = end >= text.length;
      const valid = /^[-\d]/.test(token)
        ? (atEnd ? NUMBER_START : NUMBER_WHOLE).test(token)
        : LITERALS.some((word) => (atEnd ? word.startsWith(token) : word === token));
      if (token.length === 0 || !valid) return fail();
    }
    index = end;
    expect = 'after';
  }
  return { prefix: true, read: index - start };
}

/** The index after the string opening at `start`, the text length when it runs off the end, or `-1` when it is invalid. */
function skipString(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20) return -1;
    if (code === 0x22) return index + 1;
    if (code !== 0x5c) continue;
    const escape = text[index + 1];
    if (escape === undefined) return text.length;
    if (!ESCAPE_CHARS.includes(escape)) return -1;
    if (escape === 'u') {
      const hex = text.slice(index + 2, index + 6);
      if (!/^[0-9a-fA-F]*$/.test(hex) || (hex.length < 4 && index + 6 <= text.length)) return -1;
      index += 4;
    }
    index++;
  }
  return text.length;
}
