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

/**
 * Names a deferred tool in a tool result (a client-side tool search's answer): the API expands it
 * into the tool's full definition, so the model can call the tool from then on.
 */
export interface ToolReferenceBlock {
  type: 'tool_reference';
  /** The deferred tool's name, as sent in the request's `tools`. */
  tool_name: string;
  cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' } | null;
}

/** What a tool result may hold besides a plain string. */
export type ToolResultContentBlock = TextBlock | ImageBlock | ToolReferenceBlock;

/** The answer to one {@link ToolUseBlock}, sent in the next user message. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | ToolResultContentBlock[];
  is_error?: boolean;
  cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' } | null;
}

/**
 * A call of a provider server tool (tool search, web search, ...), run by the provider within the
 * same response. Kept in history and sent back unchanged.
 */
export interface ServerToolUseBlock {
  type: 'server_tool_use';
  /** `srvtoolu_…` */
  id: string;
  /** The server tool's name, e.g. `tool_search_tool_regex`. */
  name: string;
  /** For tool search: `{ pattern, limit? }` (regex) or `{ query, limit? }` (BM25). */
  input: unknown;
  [key: string]: unknown;
}

/** The tool search server tool's answer to a {@link ServerToolUseBlock}, in the same response. */
export interface ToolSearchToolResultBlock {
  type: 'tool_search_tool_result';
  /** The id of the `server_tool_use` block it answers. */
  tool_use_id: string;
  content:
    | { type: 'tool_search_tool_search_result'; tool_references: Array<{ type: 'tool_reference'; tool_name: string }> }
    | {
        type: 'tool_search_tool_result_error';
        error_code: 'invalid_tool_input' | 'unavailable' | 'too_many_requests' | 'execution_time_exceeded' | (string & {});
        error_message?: string | null;
      };
  [key: string]: unknown;
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
  | ServerToolUseBlock
  | ToolSearchToolResultBlock
  | ToolReferenceBlock
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
