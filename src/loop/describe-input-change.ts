import { headOfText } from '../model/code-point-boundary.js';
import { canonicalJson } from '../state/canonical-json.js';

const MAX = 120;

function preview(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value);
  return text.length <= MAX ? text : `${headOfText(text, MAX)}… (${text.length} characters)`;
}

/**
 * Whether the host's input differs from the one it was shown. An echo of the same input (hosts
 * used to the Claude Agent SDK allow with `updatedInput: input`) is no edit: for a question, the
 * answers the model wrote into its own input would otherwise pass for the user's.
 */
export function inputChanged(before: unknown, after: unknown): boolean {
  return canonicalJson(before) !== canonicalJson(after);
}

/**
 * A short sentence telling the model its input was changed before the call ran, and how: the
 * fields that changed with their old and new values (shortened). Undefined when nothing changed.
 */
export function describeInputChange(before: unknown, after: unknown): string | undefined {
  if (!inputChanged(before, after)) return undefined;
  const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  let changes: string[];
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    changes = keys
      .filter((key) => canonicalJson(before[key] ?? null) !== canonicalJson(after[key] ?? null))
      .slice(0, 6)
      .map((key) => `${key}: ${preview(before[key])} → ${preview(after[key])}`);
  } else {
    changes = [`${preview(before)} → ${preview(after)}`];
  }
  return `Note: your input was changed before this call ran (by the user or the application); what ran was the changed input. Changed: ${changes.join('; ')}.`;
}
