import { headOfText } from '../../model/code-point-boundary.js';
import type { ContentBlock, TextBlock } from '../../model/messages.js';
import { modeReminder } from '../../permissions/mode-reminder.js';
import type { PendingApproval } from '../../types/pending-approval.js';
import type { PermissionMode, PermissionRules } from '../../types/permission.js';
import type { Todo } from '../../types/todo.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/**
 * The agent's state a compaction restates after the summary, taken from the agent itself and
 * never from the summary: the summary is the model's paraphrase; these are the records.
 */
export interface CompactionState {
  /** The permission mode now; a plan-mode session stays in plan mode and is told so. */
  permissionMode: PermissionMode;
  /**
   * The host's plan-mode instructions, restated when the mode is `plan`.
   * @default DEFAULT_PLAN_MODE_INSTRUCTIONS
   */
  planModeInstructions?: string;
  /** The approved plan, when there is one. */
  plan?: { name: string; text: string };
  /** The todo list. */
  todos?: readonly Todo[];
  /** Tool calls waiting for the host's answer. */
  pendingApprovals?: readonly PendingApproval[];
  /** Rules added during the session ("always allow" answers and the like). */
  sessionRules?: PermissionRules;
  /** What the `Skill` tool answered for the skills loaded in the summarized part, each as loaded. */
  loadedSkills?: readonly string[];
}

/** The first line of every restated-state block, so a reader (and a test) can tell them apart. */
export const SESSION_STATE_HEADING = 'Session state, restated exactly from the agent\'s records (it overrides anything the summary says about it):';

/** The first line of the restated loaded skills (a later compaction carries the block over). */
export const LOADED_SKILLS_HEADING = 'Skills loaded earlier in this conversation; their instructions, exactly as loaded, still apply (do not load them again):';

const PLAN_OPENING = 'The approved plan (';
const TODOS_OPENING = 'The todo list, exactly as it stands';
const APPROVALS_OPENING = "Tool calls waiting for the user's approval";
const RULES_OPENING = 'Permission rules added during this session';

/**
 * Whether a text is one of the blocks {@link sessionStateBlocks} writes (by how it opens), so the
 * restated state in a compacted history's opening message can be told from the conversation.
 * @internal
 */
export function isSessionStateText(text: string): boolean {
  return [SESSION_STATE_HEADING, PLAN_OPENING, TODOS_OPENING, APPROVALS_OPENING, RULES_OPENING, LOADED_SKILLS_HEADING].some((opening) => text.startsWith(opening));
}

/**
 * How each restated-state block opens, in full, in the order {@link sessionStateBlocks} writes them.
 * A text of the conversation may open like one of them by chance ("The approved plan (…) is
 * wrong"); matched whole, in this order, right after the summary, it is not taken for one.
 */
const STATE_BLOCK_OPENINGS: readonly RegExp[] = [
  SESSION_STATE_HEADING,
  /^The approved plan \([^\n]*\), exactly as approved:\n\n/,
  `${TODOS_OPENING} (update it with TodoWrite):\n`,
  `${APPROVALS_OPENING}; do not make them again, their results will follow:\n`,
  `${RULES_OPENING}, still in force:\n`,
  `${LOADED_SKILLS_HEADING}\n\n`,
].map((opening) => (typeof opening === 'string' ? new RegExp(`^${opening.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) : opening));

/**
 * How many of `blocks`, from `from` on, are the restated state {@link sessionStateBlocks} wrote:
 * the longest run of text blocks each opening as one of its parts does, the mode first, the others
 * in the order they are written, each at most once. What follows is not the state.
 * @internal
 */
export function sessionStateBlockCount(blocks: readonly ContentBlock[], from: number): number {
  let at = from;
  let last = -1;
  while (at < blocks.length) {
    const block = blocks[at]!;
    if (block.type !== 'text') break;
    const text = (block as TextBlock).text;
    const kind = STATE_BLOCK_OPENINGS.findIndex((opening) => opening.test(text));
    if (kind === -1 || kind <= last || (last === -1 && kind !== 0)) break;
    last = kind;
    at++;
  }
  return at - from;
}

/** Characters of a pending call's input restated after a compaction; its call keeps the whole input. */
const MAX_RESTATED_INPUT_CHARS = 2_000;

/** A pending call's input as JSON, its head only when long (a file's whole content, say): a summary must fit the window. */
function approvalInput(input: unknown): string {
  const json = JSON.stringify(input) ?? String(input);
  if (json.length <= MAX_RESTATED_INPUT_CHARS) return json;
  const head = headOfText(json, MAX_RESTATED_INPUT_CHARS);
  return `${head}… (${json.length - head.length} more characters of input; the call runs with all of it)`;
}

/**
 * The text blocks that restate the agent's state after a compaction, one per part, verbatim:
 * the permission mode with its reminder (the plan-mode instructions in plan mode), the approved
 * plan's text, the todo list as the JSON `TodoWrite` takes, pending approvals (an input past
 * 2,000 characters by its head), session rules, and
 * the instructions of skills loaded in the summarized part.
 * Parts with nothing in them are left out; the mode is always there.
 * @param state - read from the agent; see {@link CompactionState}.
 */
export function sessionStateBlocks(state: CompactionState): TextBlock[] {
  if (!isObjectValue(state)) throw argumentError('sessionStateBlocks', 'state', 'the compaction state ({ permissionMode, todos, ... })', state);
  const blocks: string[] = [];
  const reminder = modeReminder(state.permissionMode, { planModeInstructions: state.planModeInstructions });
  blocks.push(
    state.permissionMode === 'plan'
      ? `${SESSION_STATE_HEADING}\n\nPermission mode: plan. The session is still in plan mode:\n${reminder}`
      : `${SESSION_STATE_HEADING}\n\nPermission mode: ${state.permissionMode}. ${reminder}`,
  );
  if (state.plan) blocks.push(`${PLAN_OPENING}${state.plan.name}), exactly as approved:\n\n${state.plan.text}`);
  if (state.todos && state.todos.length > 0) {
    blocks.push(`${TODOS_OPENING} (update it with TodoWrite):\n${JSON.stringify(state.todos, null, 2)}`);
  }
  if (state.pendingApprovals && state.pendingApprovals.length > 0) {
    const calls = state.pendingApprovals.map((approval) => {
      const call = `${approval.toolName} (${approval.toolUseId}): ${approvalInput(approval.input)}`;
      // A subagent's call: the model knows only its own call that started the subagent.
      const outer = approval.path !== undefined && approval.path.length > 1 ? approval.path[0] : undefined;
      return outer === undefined ? `- ${call}` : `- your call ${outer} waits on its subagent's call ${call}`;
    });
    blocks.push(`${APPROVALS_OPENING}; do not make them again, their results will follow:\n${calls.join('\n')}`);
  }
  const rules = (['allow', 'deny', 'ask'] as const).flatMap((behavior) => {
    const list = state.sessionRules?.[behavior] ?? [];
    return list.length > 0 ? [`${behavior}: ${list.join(', ')}`] : [];
  });
  if (rules.length > 0) blocks.push(`${RULES_OPENING}, still in force:\n${rules.join('\n')}`);
  if (state.loadedSkills && state.loadedSkills.length > 0) {
    blocks.push(`${LOADED_SKILLS_HEADING}\n\n${state.loadedSkills.join('\n\n')}`);
  }
  return blocks.map((text): TextBlock => ({ type: 'text', text }));
}
