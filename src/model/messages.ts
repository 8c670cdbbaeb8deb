/**
 * Conversation types in the Anthropic Messages wire shape, defined here so the core never imports
 * a vendor SDK. Block types this library does not interpret pass through unchanged.
 */

/** Plain text written by the model or the user. */
export interface TextBlock {
  type: 'text';
  text: string;
  /** Citations attached by the API (web search, documents); passed through untouched. */
  citations?: unknown[] | null;
  /** Prompt-caching breakpoint, set by the model adapter. */
  cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' } | null;
}

/** Extended-thinking output. The signature must be sent back unchanged. */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** Encrypted thinking; opaque, passed back as is. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** A client tool call requested by the model. */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' } | null;
}

/** An image, by base64 data or URL. */
export interface ImageBlock {
  type: 'image';
  source:
    | { type: 'base64'; media_type: string; data: string }
    | { type: 'url'; url: string };
  cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' } | null;
}

/** The answer to one {@link ToolUseBlock}, sent in the next user message. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Array<TextBlock | ImageBlock>;
  is_error?: boolean;
  cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' } | null;
}

/**
 * A block type this library does not interpret (server tool use and results, documents,
 * compaction, search results, ...). It is kept in history and sent back exactly as received.
 */
export interface UnknownBlock {
  type: string;
  [key: string]: unknown;
}

/** Any content block of a message. */
export type ContentBlock =
  | TextBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ToolUseBlock
  | ToolResultBlock
  | ImageBlock
  | UnknownBlock;

/** A message from the user (prompts and tool results). */
export interface UserMessage {
  role: 'user';
  content: string | ContentBlock[];
}

/** A message from the model. */
export interface AssistantMessage {
  role: 'assistant';
  content: ContentBlock[];
}

/** One message of the conversation, in Anthropic wire shape. */
export type Message = UserMessage | AssistantMessage;

/** Narrows a block to a {@link ToolUseBlock}. */
export function isToolUseBlock(block: ContentBlock): block is ToolUseBlock {
  return block.type === 'tool_use';
}

/** Narrows a block to a {@link ToolResultBlock}. */
export function isToolResultBlock(block: ContentBlock): block is ToolResultBlock {
  return block.type === 'tool_result';
}
