import type { ContentBlock, TextBlock, ToolResultBlock, ToolUseBlock } from '../model/messages.js';
import { toolResultText } from '../context/index.js';
import { modeReminder } from '../permissions/mode-reminder.js';
import { PERMISSION_MODES } from '../types/permission.js';
import type { AgentCore } from './agent-core.js';

// The fresh context an approved plan can ask for. The AgentCore methods of the same names call these.

/** Records that the approved plan asked for a fresh context, carried out once its batch is answered ({@link startFreshContext}). */
export function requestFreshContext(core: AgentCore, plan: { text: string; name?: string }): void {
  core.commit({ kind: 'context-reset', request: { plan: plan.text, ...(plan.name !== undefined ? { name: plan.name } : {}) } });
}

/**
 * Carries out a requested fresh context (the batch that asked for it is answered): the history
 * is replaced by one user message with the approved plan (recorded as the session's plan
 * content), the todo list if there is one, the current mode's reminder, and the reminders queued
 * for the model's next turn (a background task's end, files rewound), which the history it
 * replaces never showed. The transcript keeps everything before; resume and fork still see it
 * in the store.
 * @param carried - the reminders queued before the batch's results were appended (that append
 *   consumes them); by default those queued now.
 */
export function startFreshContext(core: AgentCore, carried: readonly TextBlock[] = core.takeReminders()): void {
  const request = core.state.contextReset;
  if (!request || core.state.openBatch) return;
  const fresh = structuredClone(core.state);
  fresh.messages = [];
  fresh.messageUsage = [];
  fresh.pendingReminders = [];
  delete fresh.contextReset;
  delete fresh.openBatch;
  // The todos and the mode are the same before and after the checkpoint: the message is made
  // first, so both are recorded in one append (a crash between two would leave an empty history).
  const blocks: TextBlock[] = [
    {
      type: 'text',
      text: `The user approved the plan below${request.name ? ` (saved as ${request.name})` : ''} and started a fresh context to carry it out: what was explored before is no longer shown. Carry out the plan now, step by step.\n\n${request.plan}`,
    },
  ];
  if (core.state.todos.length > 0) {
    const list = core.state.todos.map((todo) => `- [${todo.status === 'completed' ? 'x' : ' '}] ${todo.content} (${todo.status})`).join('\n');
    blocks.push({ type: 'text', text: `Your todo list so far:\n${list}` });
  }
  const answers = questionAnswers(core);
  if (answers.length > 0) {
    blocks.push({ type: 'text', text: `Alongside the plan you asked the user questions, and they answered; their answers still apply:\n${answers.join('\n')}` });
  }
  const planModeInstructions = core.options.planModeInstructions;
  if (core.mode !== 'default') blocks.push({ type: 'text', text: modeReminder(core.mode, { planModeInstructions }) });
  // Mode changes are left out: the fresh context states the mode as it is now.
  const modeReminders = new Set(PERMISSION_MODES.map((mode) => modeReminder(mode, { planModeInstructions })));
  const reminders = new Set(carried.map((block) => block.text).filter((text) => !modeReminders.has(text)));
  for (const text of reminders) blocks.push({ type: 'text', text });
  core.commit({ kind: 'checkpoint', state: fresh, reason: 'clear-context' }, { kind: 'message', message: { role: 'user', content: blocks }, planContent: request.plan });
}

/**
 * The answers to questions (tools that ask the user, `requiresUserInteraction`) of the batch
 * whose plan approval asked for the fresh context: the user's words, given after the plan was
 * written, so the plan cannot hold them, and the history that showed them is replaced. Each as
 * the model read it, after the questions it asked.
 */
function questionAnswers(core: AgentCore): string[] {
  const messages = core.state.messages;
  const results = messages.at(-1);
  const calls = messages.at(-2);
  if (results?.role !== 'user' || calls?.role !== 'assistant' || !Array.isArray(results.content) || !Array.isArray(calls.content)) return [];
  const answers: string[] = [];
  for (const block of calls.content as ContentBlock[]) {
    if (block.type !== 'tool_use') continue;
    const call = block as ToolUseBlock;
    if (core.tools.get(call.name)?.requiresUserInteraction !== true) continue;
    const result = (results.content as ContentBlock[]).find((candidate): candidate is ToolResultBlock => candidate.type === 'tool_result' && candidate.tool_use_id === call.id);
    if (!result || result.is_error === true) continue;
    const text = toolResultText(result);
    if (text.trim() === '') continue;
    answers.push(`- ${call.name} ${JSON.stringify(call.input)}: ${text}`);
  }
  return answers;
}
