import { ConfigurationError } from '../errors/configuration-error.js';
import type { ContentBlock } from '../model/messages.js';
import { isBlankText } from '../history/normalize-assistant-message.js';

/** Blocks a prompt cannot carry: the loop writes tool results, the model writes calls and thinking. */
const NOT_IN_A_PROMPT = new Set(['tool_result', 'tool_use', 'server_tool_use', 'thinking', 'redacted_thinking', 'tool_search_tool_result', 'tool_reference']);

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/**
 * Checks a prompt before anything is recorded, so the history stays one the API accepts: a
 * string with text in it, or content blocks of a kind a user message may carry (text, image,
 * document, …) of which at least one is not blank text.
 * @param owner - the call that took the prompt, for the message (`agent.run()`).
 * @throws ConfigurationError naming the block and the fix.
 */
export function checkPrompt(prompt: unknown, owner: string): asserts prompt is string | ContentBlock[] {
  if (typeof prompt === 'string') {
    if (prompt.trim() === '') throw new ConfigurationError(`${owner} needs a non-empty prompt: a string with text in it, or at least one content block.`);
    return;
  }
  if (!Array.isArray(prompt)) throw new ConfigurationError(`${owner} takes a prompt string or an array of content blocks, got ${describe(prompt)}.`);
  let content = false;
  for (let index = 0; index < prompt.length; index++) {
    const block: unknown = prompt[index];
    const at = `${owner}: prompt[${index}]`;
    if (typeof block !== 'object' || block === null || Array.isArray(block)) {
      throw new ConfigurationError(`${at} must be a content block object such as { type: 'text', text: 'Hello' }, got ${describe(block)}.`);
    }
    const { type } = block as { type?: unknown };
    if (typeof type !== 'string' || type === '') throw new ConfigurationError(`${at} has no block type (a string such as 'text' or 'image'), got ${describe(type)}.`);
    if (NOT_IN_A_PROMPT.has(type)) {
      throw new ConfigurationError(
        `${at} is a ${type} block, which a prompt cannot carry: tool results are written by the loop, tool calls and thinking by the model. Send text, image or document blocks (answer a pending approval with resolveApproval()).`,
      );
    }
    if (type === 'text') {
      const { text } = block as { text?: unknown };
      if (typeof text !== 'string') throw new ConfigurationError(`${at}.text must be a string, got ${describe(text)}.`);
      if (!isBlankText(block as ContentBlock)) content = true;
    } else if (type === 'image') {
      const { source } = block as { source?: unknown };
      if (typeof source !== 'object' || source === null) throw new ConfigurationError(`${at}.source must be an object ({ type: 'base64', media_type, data } or { type: 'url', url }), got ${describe(source)}.`);
      content = true;
    } else {
      content = true;
    }
  }
  if (!content) throw new ConfigurationError(`${owner} needs a non-empty prompt: a string with text in it, or at least one content block that is not blank text.`);
}
