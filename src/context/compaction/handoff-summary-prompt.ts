import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/** The sections of a handoff summary, in order. */
export const HANDOFF_SUMMARY_SECTIONS = [
  'Goal',
  "User's constraints and preferences",
  'Decisions',
  'Done',
  'Failed attempts',
  'Files and artifacts',
  'Open items',
  'Next step',
  'How to verify',
] as const;

const sectionGuidance: Record<(typeof HANDOFF_SUMMARY_SECTIONS)[number], string> = {
  Goal: 'What the user wants in the end, in their terms, and how that changed along the way.',
  "User's constraints and preferences":
    'Every instruction, constraint, preference and correction the user gave (scope, style, tone, what to avoid, which tools or approaches to use or not). Quote them where the wording matters.',
  Decisions: 'What was decided and why, including the options that were rejected.',
  Done: 'What has been completed, concretely.',
  'Failed attempts': 'What was tried and did not work, and why, so that it is not tried again blindly.',
  'Files and artifacts':
    'Every file, document, URL, command or other artifact created, changed or consulted that still matters, with what it holds or what changed in it.',
  'Open items': 'Questions waiting for an answer, unfinished work, known problems.',
  'Next step': 'The single next action, precise enough to start on it at once.',
  'How to verify': 'How to check that the work is right: tests, commands, checks, or the criteria the user gave.',
};

/** Options of {@link buildHandoffSummaryPrompt}. */
export interface HandoffSummaryPromptOptions {
  /**
   * Extra instructions for this summary (from the host's `compact({ instructions })` or a
   * `PreCompact` hook), added at the end.
   * @default undefined
   */
  instructions?: string;
}

/**
 * The request that asks the model for a structured handoff summary of the conversation so far:
 * goal, the user's constraints and preferences, decisions, what was done, what failed and why,
 * files and artifacts, open items, the next step and how to verify, inside `<summary>` tags.
 * Domain-neutral: it fits a writing agent as well as a coding one. It tells the model to leave
 * out the plan, todos, mode, pending approvals and rules: the runtime restates those itself.
 * @param options - see {@link HandoffSummaryPromptOptions}.
 */
export function buildHandoffSummaryPrompt(options: HandoffSummaryPromptOptions = {}): string {
  if (!isObjectValue(options)) throw argumentError('buildHandoffSummaryPrompt', 'options', 'an options object ({ instructions }) or nothing', options);
  const sections = HANDOFF_SUMMARY_SECTIONS.map((name) => `## ${name}\n${sectionGuidance[name]}`).join('\n\n');
  const lines = [
    'The conversation so far is about to be replaced by a summary that you write now. The work will continue from that summary alone, so write it as a handoff: someone picking it up must be able to carry on without asking the user to repeat anything.',
    '',
    'Do not call any tools. Answer with the summary only, inside <summary></summary>, with exactly these sections:',
    '',
    sections,
    '',
    'Be specific: names, paths, numbers, exact error messages, the user\'s own words where they matter. Write "none" under a section with nothing to say.',
    'Leave out the approved plan, the todo list, the permission mode, pending approvals and permission rules: the runtime keeps them and restates them exactly after your summary.',
  ];
  const extra = options.instructions?.trim();
  if (extra) lines.push('', `Additional instructions for this summary:\n${extra}`);
  return lines.join('\n');
}

/**
 * Takes the summary out of the model's answer: the text inside the last `<summary>…</summary>`
 * when there is one, else the whole answer without an `<analysis>…</analysis>` preamble.
 * @param text - the model's answer to {@link buildHandoffSummaryPrompt}.
 * @returns the summary, or undefined when the answer holds no text or opens a `<summary>` it
 * never closes (a cut-off answer).
 */
export function extractHandoffSummary(text: string): string | undefined {
  if (typeof text !== 'string') throw argumentError('extractHandoffSummary', 'text', "a string (the model's answer)", text);
  if (unclosedHandoffSummary(text)) return undefined;
  const matches = [...text.matchAll(/<summary>([\s\S]*?)<\/summary>/g)];
  const inner = matches.length > 0 ? matches[matches.length - 1]![1]! : text.replace(/<analysis>[\s\S]*?<\/analysis>/g, '');
  const summary = inner.replace(/<\/?summary>/g, '').trim();
  return summary === '' ? undefined : summary;
}

/**
 * Whether the answer opens a `<summary>` after its last `</summary>`: the answer was cut off
 * mid-summary, and what it holds is not the whole handoff.
 * @param text - the model's answer to {@link buildHandoffSummaryPrompt}.
 */
export function unclosedHandoffSummary(text: string): boolean {
  return text.lastIndexOf('<summary>') > text.lastIndexOf('</summary>');
}
