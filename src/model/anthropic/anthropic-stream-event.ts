/**
 * The Messages API streaming events as plain JSON, typed loosely on purpose: unknown event, block
 * and delta types must flow through the accumulator rather than be rejected by a closed union.
 * This file does not import the SDK, so the loopback test server can reuse the accumulator.
 */

/** Usage counters as the API reports them; any field may be missing or null. */
export interface AnthropicWireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  [key: string]: unknown;
}

/** The message object of `message_start` (content is always empty there). */
export interface AnthropicWireMessage {
  id?: string;
  type?: string;
  role?: string;
  model?: string;
  content?: unknown[];
  stop_reason?: string | null;
  usage?: AnthropicWireUsage;
  [key: string]: unknown;
}

/** One delta of `content_block_delta`; `type` names which (text_delta, input_json_delta, ...). */
export interface AnthropicWireDelta {
  type: string;
  [key: string]: unknown;
}

/** One server-sent event of a streamed Messages API response. */
export type AnthropicStreamEvent =
  | { type: 'message_start'; message: AnthropicWireMessage }
  | { type: 'content_block_start'; index: number; content_block: { type: string; [key: string]: unknown } }
  | { type: 'content_block_delta'; index: number; delta: AnthropicWireDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason?: string | null; [key: string]: unknown };
      usage?: AnthropicWireUsage | null;
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type: string; message: string; [key: string]: unknown } };
