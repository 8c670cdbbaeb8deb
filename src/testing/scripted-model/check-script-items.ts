import { ConfigurationError } from '../../errors/configuration-error.js';
import type { ScriptedTurn } from './builders.js';

const FIX =
  "A script item is turn(...), a string (one text block), an array of blocks and strings, or a function returning turn(...): wrap blocks in turn(...) or an array, e.g. scriptedModel([turn(toolCall('Read', { file_path: 'a.md' }), 'Done.')]).";

/** Whether a value is a turn built with `turn(...)`. */
export function isScriptedTurn(value: unknown): value is ScriptedTurn {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'scripted-turn' && Array.isArray((value as { content?: unknown }).content);
}

/** What a value is, for a message: `a tool_use block`, `null`, `a number`, `an object that is not a turn`. */
export function describeScriptValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const type = (value as { type?: unknown }).type;
    return typeof type === 'string' ? `a ${type} block` : 'an object that is not a turn';
  }
  return `a ${typeof value}`;
}

/** What is wrong with one script item, or undefined when it can be played. */
function problemOf(item: unknown): string | undefined {
  if (typeof item === 'string' || typeof item === 'function' || isScriptedTurn(item)) return undefined;
  if (Array.isArray(item)) {
    // An array is the parts of one turn: blocks, strings and turn options (objects).
    const bad = item.findIndex((part) => typeof part !== 'string' && (typeof part !== 'object' || part === null || Array.isArray(part)));
    return bad === -1 ? undefined : `an array whose element ${bad} is ${describeScriptValue(item[bad])}`;
  }
  return describeScriptValue(item);
}

/**
 * Checks script items as they are given (to `scriptedModel` or `push`), so a wrong one fails at
 * once, naming its place in the whole script, instead of at the model call that plays it.
 * @param first - the index in the whole script of `items[0]`.
 * @throws ConfigurationError naming the first bad item and how to write it.
 */
export function checkScriptItems(items: unknown, owner: 'scriptedModel' | 'model.push', first = 0): void {
  if (!Array.isArray(items)) throw new ConfigurationError(`scriptedModel takes an array of script items, got ${describeScriptValue(items)}. ${FIX}`);
  for (const [offset, item] of items.entries()) {
    const problem = problemOf(item);
    if (problem !== undefined) throw new ConfigurationError(`${owner}: script item ${first + offset} is ${problem}, which cannot be played. ${FIX}`);
  }
}

/**
 * Checks what a turn factory returned.
 * @throws ConfigurationError naming the item when it is not a turn.
 */
export function checkFactoryTurn(value: unknown, index: number): ScriptedTurn {
  if (isScriptedTurn(value)) return value;
  throw new ConfigurationError(`scriptedModel: script item ${index} is a function that returned ${describeScriptValue(value)}; return turn(...) from it, e.g. (request) => turn('Done.').`);
}
