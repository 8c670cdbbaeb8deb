import { ConfigurationError } from '../errors/configuration-error.js';
import { nearestName } from '../options/nearest-name.js';
import { compileHookMatcher } from './hook-matcher.js';
import { HOOK_EVENT_NAMES, TOOL_HOOK_EVENT_NAMES, isToolHookEvent } from './hook-event-names.js';
import type { HookEventName, HooksConfig } from './types.js';

const ENTRY_KEYS = new Set(['matcher', 'hook', 'timeoutMs']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validateEntry(event: HookEventName, index: number, entry: unknown): void {
  const where = `hooks.${event}[${index}]`;
  if (!isPlainObject(entry)) {
    throw new ConfigurationError(`${where} must be an object { matcher?, hook, timeoutMs? }, got ${describe(entry)}.`);
  }
  for (const key of Object.keys(entry)) {
    if (!ENTRY_KEYS.has(key)) {
      const near = nearestName(key, [...ENTRY_KEYS]);
      throw new ConfigurationError(`${where} has an unknown key "${key}"; ${near ? `did you mean "${near}"? ` : ''}A hook entry takes matcher, hook and timeoutMs.`);
    }
  }
  if (typeof entry.hook !== 'function') {
    throw new ConfigurationError(`${where}.hook must be a function (input) => output, got ${describe(entry.hook)}.`);
  }
  if (entry.matcher !== undefined) {
    if (!isToolHookEvent(event)) {
      throw new ConfigurationError(
        `${where}.matcher: only tool events (${TOOL_HOOK_EVENT_NAMES.join(', ')}) take a matcher; remove it from this ${event} hook.`,
      );
    }
    if (typeof entry.matcher !== 'string') {
      throw new ConfigurationError(`${where}.matcher must be a regular expression source string such as "Write|Edit", got ${describe(entry.matcher)}.`);
    }
    try {
      compileHookMatcher(entry.matcher);
    } catch (cause) {
      throw new ConfigurationError(
        `${where}.matcher ${JSON.stringify(entry.matcher)} is not a valid regular expression (${(cause as Error).message}); use e.g. "Write|Edit" or "*" for every tool.`,
        { cause },
      );
    }
  }
  if (entry.timeoutMs !== undefined) {
    const timeoutMs = entry.timeoutMs;
    if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new ConfigurationError(`${where}.timeoutMs must be a positive number of milliseconds, got ${describe(timeoutMs)}.`);
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

/**
 * Checks the `hooks` option once, at agent creation, so a typo fails loudly instead of a hook
 * silently never running.
 * @param hooks - the value passed as `hooks`; `undefined` is valid (no hooks).
 * @throws ConfigurationError naming the bad key: an unknown event name, an entry that is not an
 * object, a hook that is not a function, a matcher on a non-tool event or one that is not a valid
 * regular expression, a non-positive `timeoutMs`.
 */
export function validateHooksConfig(hooks: unknown): asserts hooks is HooksConfig | undefined {
  if (hooks === undefined) return;
  if (!isPlainObject(hooks)) {
    throw new ConfigurationError(`hooks must be an object such as { PreToolUse: [{ matcher: 'Write', hook }] }, got ${describe(hooks)}.`);
  }
  for (const [key, entries] of Object.entries(hooks)) {
    if (!(HOOK_EVENT_NAMES as readonly string[]).includes(key)) {
      const near = nearestName(key, HOOK_EVENT_NAMES);
      throw new ConfigurationError(`hooks.${key} is not a hook event; ${near ? `did you mean ${near}? Events: ` : 'use one of '}${HOOK_EVENT_NAMES.join(', ')}.`);
    }
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) {
      throw new ConfigurationError(`hooks.${key} must be an array of { matcher?, hook, timeoutMs? }, got ${describe(entries)}.`);
    }
    entries.forEach((entry, index) => validateEntry(key as HookEventName, index, entry));
  }
}
