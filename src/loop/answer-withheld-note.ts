/**
 * What the model is told, in the next user message, when its refused answer is left out of the
 * conversation (see the agent option `refusedAnswers`).
 */
export const ANSWER_WITHHELD_NOTE =
  '[Your previous answer was stopped by the API as a refusal (stop reason "refusal") and is withheld from this conversation, with any tool calls it made (none of them ran).]';
