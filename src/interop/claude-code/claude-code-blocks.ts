import type { ContentBlock } from '../../model/messages.js';
import { isRecord, type JsonRecord } from './claude-code-line-fields.js';
import { toolInputObject } from './claude-code-tools.js';
import { INCOMPLETE_TOOL_INPUT_KEY } from '../../model/incomplete-tool-input.js';

const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

/** Why a block cannot be kept, or undefined when it is sound (known types only; others pass). */
function blockProblem(block: JsonRecord): string | undefined {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? undefined : 'a text block whose text is not a string';
    case 'thinking':
      return typeof block.thinking === 'string' && typeof block.signature === 'string'
        ? undefined
        : 'a thinking block without a string thinking and signature';
    case 'redacted_thinking':
      return typeof block.data === 'string' ? undefined : 'a redacted_thinking block whose data is not a string';
    case 'tool_use':
      if (typeof block.id !== 'string' || block.id.length === 0 || typeof block.name !== 'string' || block.name.length === 0) return 'a tool_use block without a string id and name';
      // The API takes back only ids of these characters: a block with another would fail every request.
      return TOOL_USE_ID.test(block.id) ? undefined : 'a tool_use block whose id has characters other than letters, digits, _ and -';
    case 'tool_result': {
      if (typeof block.tool_use_id !== 'string' || block.tool_use_id.length === 0) return 'a tool_result block without a string tool_use_id';
      if (block.is_error !== undefined && typeof block.is_error !== 'boolean') return 'a tool_result block whose is_error is not a boolean';
      const { content } = block;
      return content === undefined || typeof content === 'string' || Array.isArray(content)
        ? undefined
        : 'a tool_result block whose content is neither text nor blocks';
    }
    case 'image':
      return isRecord(block.source) ? undefined : 'an image block without a source';
    default:
      return undefined;
  }
}

/**
 * Message content as blocks, each checked for the fields its type needs: a string becomes one
 * text block; blocks that are not objects with a string `type`, or that lack what their type
 * needs (a tool_use without a string id, ...), are dropped and described in `problems`. A
 * tool_use input recorded as a JSON string of an object becomes that object. Block types this
 * library does not interpret pass through unchanged.
 * @returns the blocks, or undefined when `content` is neither a string nor an array.
 */
export function toBlocks(content: unknown, problems: string[]): ContentBlock[] | undefined {
  if (typeof content === 'string') return content.length ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) return undefined;
  const blocks: ContentBlock[] = [];
  for (const block of content) {
    if (!isRecord(block) || typeof block.type !== 'string' || block.type === '') {
      problems.push('a content block that is not an object with a non-empty string type');
      continue;
    }
    const problem = blockProblem(block);
    if (problem !== undefined) {
      problems.push(problem);
      continue;
    }
    if (block.type === 'tool_result' && Array.isArray(block.content)) {
      // Blocks inside a result are checked like any others.
      blocks.push({ ...(block as ContentBlock), content: toBlocks(block.content, problems)! } as ContentBlock);
      continue;
    }
    if (block.type === 'tool_use' && !isRecord(block.input)) {
      // An object recorded as JSON text is that object; any other input (null, a number, a cut
      // string) is kept as unreadable input, which the API takes back and the loop never runs.
      const input = toolInputObject(block.input);
      if (input === undefined) problems.push('a tool_use block whose input is not an object (kept as unreadable input)');
      blocks.push({ ...(block as ContentBlock), input: input ?? { [INCOMPLETE_TOOL_INPUT_KEY]: typeof block.input === 'string' ? block.input : (JSON.stringify(block.input) ?? '') } } as ContentBlock);
      continue;
    }
    blocks.push(block as ContentBlock);
  }
  return blocks;
}
