import { z } from 'zod/v4';
import { builtOnFirstUse } from '../built-on-first-use.js';
import { defineTool } from '../define-tool.js';
import { compileInputSchema } from '../input-schema.js';

const DESCRIPTION = `Ask the user one to four questions when you need their decision or information to continue: an unclear requirement, a choice between approaches, a preference. Prefer asking to guessing. Each question has a short header (at most 12 characters), two to four options (a label and what it means), and says whether several options may be chosen; the user may also answer in their own words. Use it in plan mode too. Do not use it to ask for approval of a plan (present plans with ExitPlanMode).`;

const schemas = builtOnFirstUse(() => {
  const option = z.object({
    label: z.string().min(1).max(80).describe('The choice as the user sees it, a few words.'),
    description: z.string().describe('What choosing it means.'),
  });
  const question = z.object({
    question: z.string().min(1).describe('The full question, ending with a question mark.'),
    header: z.string().min(1).max(12).describe('A very short label for the question, e.g. "Audience".'),
    options: z.array(option).min(2).max(4).describe('Two to four choices.'),
    multiSelect: z.boolean().describe('Whether several options may be chosen.'),
  });
  const questions = z.array(question).min(1).max(4).describe('One to four questions.');
  return {
    // What the model may write: no answers (the JSON Schema it gets says additionalProperties:
    // false), and any it writes anyway are stripped when its input is parsed, before the host sees it.
    model: z.object({ questions }),
    // What the host may write back (`updatedInput`): the questions with its answers.
    host: z.object({ questions, answers: z.record(z.string(), z.string()).optional() }),
  };
});

/** The input of `AskUserQuestion` as the host answers it: the shape Claude Code and the Claude Agent SDK use, so hosts reuse their cards. */
export type AskUserQuestionInput = z.infer<ReturnType<typeof schemas>['host']>;

/**
 * The opt-in `AskUserQuestion` tool (`createAgent({ askUserQuestion: true })`): the model asks
 * the user 1–4 multiple-choice questions. Read-only (it runs in plan mode), and a question for
 * the user in every mode: it reaches the host as `canUseTool('AskUserQuestion', input, ctx)` with
 * `ctx.reason.type === 'question'` and a `user-question` event; the host answers with
 * `{ behavior: 'allow', updatedInput: { ...input, answers: { [question]: label } } }` (several
 * labels joined with ", " for multi-select, or free text). Without `canUseTool`, or with
 * `defer`, the question waits like any approval. Only answers the host gave count: the model's
 * schema has no `answers`, answers the model writes anyway are stripped from its input before
 * the host sees it (in `canUseTool`, events, hooks and pending approvals), and a host answer that
 * only echoes the input is no answer.
 */
export function createAskUserQuestionTool() {
  const { model, host } = schemas();
  const tool = defineTool({
    name: 'AskUserQuestion',
    description: DESCRIPTION,
    inputSchema: host,
    readOnly: true,
    concurrencySafe: false,
    requiresUserInteraction: true,
    validateInput: ({ input }) => {
      const texts = input.questions.map((entry) => entry.question);
      if (new Set(texts).size !== texts.length) return 'Each question must be different (answers are keyed by the question text).';
      // An object key that cannot hold an answer (assigning it sets the prototype): the answer would be lost.
      if (texts.includes('__proto__')) return 'A question cannot be "__proto__" (answers are keyed by the question text); ask it in other words.';
      for (const entry of input.questions) {
        const labels = entry.options.map((choice) => choice.label);
        if (new Set(labels).size !== labels.length) return `The options of "${entry.question}" must have different labels.`;
      }
      return undefined;
    },
    checkPermissions: () => ({ behavior: 'ask', message: 'The model asks the user.', askReason: { type: 'question' } }),
    execute: ({ input, hostAnswer }) => {
      // Answers count only when the host gave them (it replaced the input); the model's own are ignored.
      const answers = hostAnswer?.edited ? (input.answers ?? {}) : {};
      const answered = input.questions.filter((entry) => typeof answers[entry.question] === 'string' && answers[entry.question]!.trim() !== '');
      if (answered.length === 0) {
        return 'The user did not answer your questions. Do not assume an answer: go on with what you know and say what you assumed, or ask again later if it blocks you.';
      }
      const lines = answered.map((entry) => `"${entry.question}" = "${answers[entry.question]}"`);
      const missing = input.questions.length - answered.length;
      return `The user answered your questions: ${lines.join(', ')}.${missing > 0 ? ` ${missing} question(s) were left unanswered.` : ''} Go on with these answers in mind.`;
    },
  });
  // The model's input is parsed (and described to the model) without answers; the host's with them.
  const forModel = compileInputSchema(tool.name, model);
  return { ...tool, jsonSchema: forModel.jsonSchema, parseInput: forModel.parse as typeof tool.parseInput, parseHostInput: tool.parseInput };
}
