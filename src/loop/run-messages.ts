import type { Message } from '../model/messages.js';

/**
 * The messages a run added or changed, by identity rather than by position (a compaction can
 * rewrite the history under a run): after each change to the history, `note` is given the last
 * message before and after it.
 */
export class RunMessages {
  readonly list: Message[] = [];

  /**
   * Records the history's last message after a change: `before` is the last message before it,
   * `joined` whether the change joined content into that message instead of adding one.
   */
  note(before: Message | undefined, after: Message | undefined, joined: boolean): void {
    if (after === undefined || after === before) return;
    // A message joined into the one this run added last replaces it; anything else is new to the run.
    if (joined && before !== undefined && this.list[this.list.length - 1] === before) this.list[this.list.length - 1] = after;
    else this.list.push(after);
  }
}
