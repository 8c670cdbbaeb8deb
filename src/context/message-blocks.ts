import type { ContentBlock, Message, TextBlock } from '../model/messages.js';

/** A message's content as blocks (string content becomes one text block). */
export function contentBlocks(message: Message): ContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content } as TextBlock] : message.content;
}

/** Whether the message is an assistant message that calls client tools. */
export function callsTools(message: Message | undefined): boolean {
  return message?.role === 'assistant' && message.content.some((block) => block.type === 'tool_use');
}

/** Whether the message is a user message that answers tool calls. */
export function answersTools(message: Message | undefined): boolean {
  return message?.role === 'user' && typeof message.content !== 'string' && message.content.some((block) => block.type === 'tool_result');
}
