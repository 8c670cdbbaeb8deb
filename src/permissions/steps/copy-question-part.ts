import { copyToolInput } from '../../hooks/copy-tool-input.js';
import type { ToolDisplay } from '../../types/tool-display.js';
import { copyDisplay } from './tool-display.js';

/**
 * A copy of a part of a permission question (its `reason`, its `suggestions`) for one reader: a
 * `PermissionRequest` hook, the `permission-request` event or `canUseTool`. Each gets its own, so
 * host code that changes one in place (sorts the suggestions, edits a rule) changes neither what
 * another reader sees nor the pending approval the session keeps. They are small plain data
 * (rules, paths, messages), copied only when a question is asked.
 */
export function copyQuestionPart<T>(part: T): T {
  try {
    return structuredClone(part);
  } catch {
    // A value a host's check put there that cannot be copied (a function): handed out as it is.
    return part;
  }
}

/** The parts of a `permission-request` event a reader could change in place. */
interface QuestionEvent {
  input: unknown;
  reason: unknown;
  suggestions: unknown;
  display?: ToolDisplay;
  toolAnnotations?: object;
}

/** A `permission-request` event for one listener: its own input, reason, suggestions, card and annotations. */
export function copyPermissionRequest<E extends QuestionEvent>(event: E): E {
  const copy = { ...event, input: copyToolInput(event.input), reason: copyQuestionPart(event.reason), suggestions: copyQuestionPart(event.suggestions) };
  if (event.display !== undefined) copy.display = copyDisplay(event.display);
  if (event.toolAnnotations !== undefined) copy.toolAnnotations = { ...event.toolAnnotations };
  return copy;
}
