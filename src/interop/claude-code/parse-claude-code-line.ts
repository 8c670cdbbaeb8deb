import { isRecord, type JsonRecord } from './claude-code-line-fields.js';

/** Most `{"` positions tried in one malformed line. */
const MAX_ATTEMPTS = 1000;
/** Characters all attempts on one line may parse, at least; a long line gets a multiple of its length. */
const MIN_BUDGET = 8 * 1024 * 1024;

/**
 * The record appended onto a torn line (the writer died mid-line, then the session went on and
 * the next record landed on the same line): the suffix, starting at a `{"` after the first
 * character, that parses as an object with a string `type`.
 *
 * Suffixes are tried from the end of the line: a suffix starting inside the appended record never
 * parses (its closing braces are left over), so the first one that parses is the appended record,
 * found at a cost near its own size, however long the torn part before it is. The attempts and
 * the characters they may parse are bounded, so a huge line full of `{"` stays cheap.
 */
export function recordAfterTornStart(line: string): { record: JsonRecord; column: number } | undefined {
  const budget = Math.max(MIN_BUDGET, 4 * line.length);
  let spent = 0;
  let attempts = 0;
  for (let index = line.lastIndexOf('{"'); index > 0 && attempts < MAX_ATTEMPTS; index = line.lastIndexOf('{"', index - 1)) {
    attempts++;
    spent += line.length - index;
    if (spent > budget) return undefined;
    try {
      const record: unknown = JSON.parse(line.slice(index));
      if (isRecord(record) && typeof record.type === 'string') return { record, column: index };
    } catch {
      // Not here; try the opening before it.
    }
  }
  return undefined;
}

/**
 * One line as a record with a string `type`, or — reported through `malformed` — undefined. A
 * torn line loses only its torn start: the record appended onto it is returned.
 */
export function parseClaudeCodeLine(line: string, malformed: (problem: string) => void): JsonRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    const recovered = recordAfterTornStart(line);
    if (!recovered) {
      malformed(`not valid JSON (${error instanceof Error ? error.message.slice(0, 200) : 'unparseable'})`);
      return undefined;
    }
    malformed(`its first ${recovered.column} characters are a torn record (cut off, then the next record was appended onto it); that record is lost, the one after it was read`);
    parsed = recovered.record;
  }
  if (!isRecord(parsed) || typeof parsed.type !== 'string') {
    malformed('not a JSON object with a string "type"');
    return undefined;
  }
  return parsed;
}
