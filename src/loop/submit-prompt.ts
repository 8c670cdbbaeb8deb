import { PromptBlockedError } from '../errors/prompt-blocked-error.js';
import { runHooksUnchecked } from '../hooks/run-hooks.js';
import { hasHooks } from '../hooks/has-hooks.js';
import { isBlankText } from '../history/normalize-assistant-message.js';
import type { ContentBlock, TextBlock } from '../model/messages.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { batchResults, type OpenBatch } from '../state/index.js';
import type { EntryDraft } from '../state/entries.js';
import { ANSWER_WITHHELD_NOTE } from './answer-withheld-note.js';
import { reportHookErrors } from './execute-tools.js';
import { refuseOpenCalls, SUPERSEDED_BY_PROMPT } from './refuse-call.js';
import type { RunAbort } from './run-abort.js';
import { textOf } from './text-of.js';

/**
 * Adds the prompt to the history: answers a batch left open by pending approvals (they are
 * superseded), runs `SessionStart` (first prompt) and `UserPromptSubmit` hooks, and appends one
 * user message. Returns an error when a hook blocked the prompt.
 */
export async function submitPrompt(
  core: AgentCore,
  prompt: string | ContentBlock[],
  abort: RunAbort,
  tracked: (change: () => void) => void,
  instruction?: string,
): Promise<PromptBlockedError | undefined> {
  const context: TextBlock[] = [];
  // A subagent's prompt comes from its parent's model, not the user: `SubagentStart` hooks see it.
  const subagent = core.parentToolUseId !== undefined;
  const source = subagent ? undefined : core.sessionStartSource;
  if (source !== undefined) core.sessionStartSource = undefined;
  if (source !== undefined && hasHooks(core.options.hooks, 'SessionStart')) {
    const start = await runHooksUnchecked({ event: 'SessionStart', hooks: core.options.hooks, signal: abort.signal, input: { sessionId: core.sessionId, source } });
    reportHookErrors(core, start.errors);
    for (const output of start.outputs) if (output?.additionalContext?.trim()) context.push({ type: 'text', text: output.additionalContext });
  }
  // The SessionStart context of a first prompt that a UserPromptSubmit hook blocked goes with the next one.
  if (core.heldSessionStartContext !== undefined) context.unshift(...core.heldSessionStartContext.splice(0));
  core.heldSessionStartContext = undefined;
  const startContext = context.length;
  if (!subagent && hasHooks(core.options.hooks, 'UserPromptSubmit')) {
    const submit = await runHooksUnchecked({
      event: 'UserPromptSubmit',
      hooks: core.options.hooks,
      signal: abort.signal,
      input: { sessionId: core.sessionId, prompt: typeof prompt === 'string' ? prompt : textOf({ role: 'user', content: prompt }) },
    });
    reportHookErrors(core, submit.errors);
    const blocking = submit.outputs.find((output) => output?.block);
    if (blocking) {
      if (startContext > 0) core.heldSessionStartContext = context.slice(0, startContext);
      return new PromptBlockedError(blocking.reason);
    }
    for (const output of submit.outputs) if (output?.additionalContext?.trim()) context.push({ type: 'text', text: output.additionalContext });
  }

  // After a refusal the refused answer is left out of what the model is sent from now on (a fresh
  // context an approved plan asked for drops it anyway). The entry goes in one append with the
  // prompt: a history left ending on the refused prompt alone would have continue() answer it again.
  const withheld: EntryDraft | undefined =
    core.state.endedOnRefusal && core.options.refusedAnswers !== 'keep' && !core.state.contextReset ? { kind: 'answer-withheld', note: ANSWER_WITHHELD_NOTE } : undefined;
  const blocks: ContentBlock[] = [];
  const batch: OpenBatch | undefined = core.state.openBatch;
  if (batch) {
    refuseOpenCalls(core, batch, SUPERSEDED_BY_PROMPT);
    blocks.push(...batchResults(batch));
  }
  if (core.state.contextReset) {
    // The fresh context an approved plan asked for starts before the new prompt, with the reminders.
    const carried = core.takeReminders();
    if (blocks.length > 0) tracked(() => core.appendUserContent(blocks.splice(0)));
    tracked(() => core.startFreshContext(carried));
  }
  if (withheld) blocks.push({ type: 'text', text: ANSWER_WITHHELD_NOTE });
  blocks.push(...core.takeReminders(), ...context);
  if (typeof prompt === 'string') blocks.push({ type: 'text', text: prompt });
  else blocks.push(...prompt.filter((block) => !isBlankText(block)));
  if (instruction) blocks.push({ type: 'text', text: instruction });
  if (withheld) tracked(() => core.commit(withheld, { kind: 'message', message: { role: 'user', content: blocks } }));
  else tracked(() => core.appendUserContent(blocks));
  return undefined;
}
