import type { AnswerField } from '../options/read-answer.js';
import type { HookEventName, HookOutputs } from './types.js';

/** The documented fields of each hook event's output: what is read of a hook's answer (see readAnswer). */
export const HOOK_OUTPUT_FIELDS: { readonly [E in HookEventName]: ReadonlyArray<AnswerField<HookOutputs[E]>> } = {
  SessionStart: ['additionalContext'],
  UserPromptSubmit: ['block', 'reason', 'additionalContext'],
  PreToolUse: ['decision', 'reason', 'updatedInput'],
  PermissionRequest: ['decision', 'message', 'updatedInput'],
  PostToolUse: ['additionalContext', 'updatedOutput'],
  PostToolUseFailure: ['additionalContext'],
  Stop: ['continue', 'reason'],
  SubagentStart: ['additionalContext'],
  SubagentStop: [],
  SessionEnd: [],
  PreCompact: ['instructions', 'block'],
  PostCompact: [],
};
