import type { Message, TextBlock } from '../model/messages.js';

/** The text blocks of a message, joined. */
export function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((block): block is TextBlock => block.type === 'text')
    .map((block) => block.text)
    .join('');
}
