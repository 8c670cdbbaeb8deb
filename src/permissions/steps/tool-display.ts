import { isObject } from '../../options/index.js';
import type { ToolDisplay } from '../../types/tool-display.js';
import { raceAbort } from '../race-abort.js';
import { reportError, type PipelineState } from './pipeline-state.js';
import { describeThrown } from '../../errors/describe-thrown.js';
import { describeJson } from '../../options/describe-json.js';
import { revealHiddenCharacters } from '../../tools/reveal-hidden-characters.js';

const BODY_FORMATS = new Set(['diff', 'command', 'markdown', 'text']);

/** A `display` answer with the fields a card needs, of the right types. */
function isToolDisplay(value: unknown): value is ToolDisplay {
  if (!isObject(value) || typeof value.title !== 'string' || typeof value.summary !== 'string') return false;
  if (value.body !== undefined && typeof value.body !== 'string') return false;
  if (value.bodyFormat !== undefined && !BODY_FORMATS.has(value.bodyFormat as string)) return false;
  if (value.cwd !== undefined && typeof value.cwd !== 'string') return false;
  const file = value.file;
  if (file !== undefined && !(isObject(file) && typeof file.path === 'string' && typeof file.after === 'string' && (file.before === null || typeof file.before === 'string'))) return false;
  return true;
}

/**
 * The card as a human reads it: its text fields are often model text (Bash's `description`, a
 * path, a command), so bidi, invisible and control characters in them are shown as `<U+XXXX>`
 * and cannot reorder or hide what the human approves. The file's contents stay as they are, for
 * hosts that compare them in their own view.
 */
function revealed(display: ToolDisplay): ToolDisplay {
  const card: ToolDisplay = { ...display, title: revealHiddenCharacters(display.title), summary: revealHiddenCharacters(display.summary) };
  if (display.body !== undefined) card.body = revealHiddenCharacters(display.body);
  if (display.cwd !== undefined) card.cwd = revealHiddenCharacters(display.cwd);
  if (display.file !== undefined) card.file = { ...display.file, path: revealHiddenCharacters(display.file.path) };
  return card;
}

/**
 * What the approval card of this call shows, from the tool's `display`, computed once per asked
 * call (and kept in `state.display`). A `display` that throws or answers something else is
 * reported as a non-fatal `error` event and left out: the card falls back to the raw input.
 */
export async function toolDisplay(state: PipelineState): Promise<ToolDisplay | undefined> {
  const { tool, toolUseId, agent } = state.args;
  if (tool.display === undefined || state.display !== undefined) return state.display;
  const { signal } = state.args;
  try {
    const raced = await raceAbort(() => tool.display!({ input: state.input, toolUseId, agent, signal }), signal);
    if (raced.aborted || raced.value === undefined) return undefined;
    if (!isToolDisplay(raced.value)) throw new Error(`returned ${describeJson(raced.value)}; expected { title: string, summary: string, body?: string }`);
    state.display = revealed(raced.value);
    return state.display;
  } catch (cause) {
    const detail = describeThrown(cause).trim().replace(/\.+$/, '');
    reportError(state, new Error(`The display of tool "${tool.name}" failed: ${detail}. The approval shows the raw input instead.`, { cause }));
    return undefined;
  }
}

/** A copy of a card for one reader (its strings are shared: they cannot change in place). */
export function copyDisplay(display: ToolDisplay): ToolDisplay {
  return display.file === undefined ? { ...display } : { ...display, file: { ...display.file } };
}
