import type { ContentBlock } from '../../model/messages.js';
import type { MessagesRequestBody, MessagesServerTurn } from './messages-server-types.js';

/** One server-sent event: its name and JSON payload. */
export type WireEvent = { type: string; [key: string]: unknown };

/** The non-streaming JSON answer for a scripted turn. */
export function scriptedTurnMessage(turn: MessagesServerTurn, request: MessagesRequestBody, fallbackId: string): WireEvent {
  const usage = turnUsage(turn, request);
  return {
    id: turn.id ?? fallbackId,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content: turn.content,
    stop_reason: turnStopReason(turn),
    stop_sequence: null,
    ...(turn.stopDetails ? { stop_details: wireStopDetails(turn) } : {}),
    usage: { ...usage, service_tier: 'standard' },
  };
}

/** A turn's `stopDetails` as the API sends them (`stop_details`). */
function wireStopDetails(turn: MessagesServerTurn): Record<string, unknown> | undefined {
  const details = turn.stopDetails;
  return details ? { type: details.type, category: details.category, explanation: details.explanation } : undefined;
}

/**
 * The events the real API would stream for `turn`: `message_start` with usage (output_tokens 1, as
 * the API reports), per block `content_block_start`/`_delta`/`_stop` with text split in pieces and
 * tool input sent as several `partial_json` chunks split mid-string, a `ping`, `message_delta` with
 * the stop reason and final usage, and `message_stop`.
 */
export function scriptedTurnEvents(turn: MessagesServerTurn, request: MessagesRequestBody, fallbackId: string): WireEvent[] {
  const usage = turnUsage(turn, request);
  const events: WireEvent[] = [
    {
      type: 'message_start',
      message: {
        id: turn.id ?? fallbackId,
        type: 'message',
        role: 'assistant',
        model: request.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1, service_tier: 'standard' },
      },
    },
  ];
  turn.content.forEach((block, index) => {
    events.push(...blockEvents(block, index));
    if (index === 0) events.push({ type: 'ping' });
  });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: turnStopReason(turn), stop_sequence: null, ...(turn.stopDetails ? { stop_details: wireStopDetails(turn) } : {}) },
      usage: { ...usage },
    },
    { type: 'message_stop' },
  );
  return events;
}

function blockEvents(block: ContentBlock, index: number): WireEvent[] {
  const record = block as Record<string, unknown>;
  const delta = (payload: Record<string, unknown>): WireEvent => ({ type: 'content_block_delta', index, delta: payload });
  const start = (content_block: Record<string, unknown>): WireEvent => ({ type: 'content_block_start', index, content_block });
  const stop: WireEvent = { type: 'content_block_stop', index };
  const { cache_control: _ignored, ...rest } = record;
  switch (block.type) {
    case 'text': {
      const { citations, text, ...others } = rest;
      const citationList = Array.isArray(citations) ? citations : [];
      return [
        start({ ...others, type: 'text', text: '', ...(citationList.length ? { citations: [] } : {}) }),
        ...splitText(String(text ?? '')).map((piece) => delta({ type: 'text_delta', text: piece })),
        ...citationList.map((citation) => delta({ type: 'citations_delta', citation })),
        stop,
      ];
    }
    case 'thinking':
      return [
        start({ type: 'thinking', thinking: '', signature: '' }),
        ...splitText(String(record.thinking ?? '')).map((piece) => delta({ type: 'thinking_delta', thinking: piece })),
        delta({ type: 'signature_delta', signature: String(record.signature ?? '') }),
        stop,
      ];
    case 'tool_use':
    case 'server_tool_use': {
      const json = JSON.stringify(record.input ?? {});
      const pieces = json === '{}' ? [''] : ['', ...splitText(json)];
      return [
        start({ ...rest, input: {} }),
        ...pieces.map((piece) => delta({ type: 'input_json_delta', partial_json: piece })),
        stop,
      ];
    }
    default:
      return [start(rest), stop];
  }
}

/** Splits text into up to three pieces at arbitrary points (also inside strings and escapes). */
function splitText(text: string): string[] {
  if (text.length < 3) return [text];
  const first = Math.max(1, Math.floor(text.length / 3));
  const second = Math.max(first + 1, Math.floor((text.length * 2) / 3) + 1);
  return [text.slice(0, first), text.slice(first, second), text.slice(second)].filter((piece) => piece !== '');
}

function turnStopReason(turn: MessagesServerTurn): string {
  return turn.stopReason ?? (turn.content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function turnUsage(turn: MessagesServerTurn, request: MessagesRequestBody) {
  const given = turn.usage ?? {};
  return {
    input_tokens: given.inputTokens ?? Math.ceil(JSON.stringify(request.messages ?? []).length / 4),
    cache_creation_input_tokens: given.cacheCreationInputTokens ?? 0,
    cache_read_input_tokens: given.cacheReadInputTokens ?? 0,
    output_tokens: given.outputTokens ?? Math.max(1, Math.ceil(JSON.stringify(turn.content).length / 4)),
  };
}
