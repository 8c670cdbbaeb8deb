import type { Message } from '../model/messages.js';

/**
 * The `tool_use` ids a history already uses, kept up to date as messages are appended (the API
 * refuses a request in which two calls share an id, also across messages). Each message is read
 * once; the last one again, since a continuation after `pause_turn` joins it. A history replaced
 * or shortened (a checkpoint, a compaction) is read again from the start.
 */
export class ToolUseIdIndex {
  private messages: readonly Message[] | undefined;
  private counted = 0;
  private ids = new Set<string>();
  private lastIds: string[] = [];

  /** The ids used in `messages`, the last message included. */
  idsIn(messages: readonly Message[]): ReadonlySet<string> {
    if (messages !== this.messages || messages.length < this.counted) {
      this.messages = messages;
      this.counted = 0;
      this.ids = new Set();
      this.lastIds = [];
    } else if (this.counted > 0) {
      // The last message may have changed since it was read: read it again.
      for (const id of this.lastIds) this.ids.delete(id);
      this.counted--;
    }
    for (; this.counted < messages.length; this.counted++) {
      const message = messages[this.counted]!;
      const found: string[] = [];
      if (message.role === 'assistant' && Array.isArray(message.content)) {
        for (const block of message.content) {
          if ((block.type === 'tool_use' || block.type === 'server_tool_use') && typeof (block as { id?: unknown }).id === 'string') found.push((block as { id: string }).id);
        }
      }
      for (const id of found) this.ids.add(id);
      this.lastIds = found;
    }
    return this.ids;
  }
}
