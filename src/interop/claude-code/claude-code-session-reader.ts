import { ConfigurationError } from '../../errors/configuration-error.js';
import type { SessionEntry } from '../../state/entries.js';
import type { ClaudeCodeSessionNormalizer } from './claude-code-session-normalizer.js';
import type { ClaudeCodeSessionStats, ClaudeCodeSubagent, ReadClaudeCodeFileBackup } from './claude-code-session-types.js';
import { describeThrown } from '../../errors/describe-thrown.js';

/** The entries of a Claude Code session, read lazily; iterate once. */
export interface ClaudeCodeSessionReader extends AsyncIterable<SessionEntry> {
  /** Counts so far; complete once iteration has ended. */
  readonly stats: ClaudeCodeSessionStats;
  /**
   * Each subagent, by the `agentId` its entries carry, with the tool call (`Task` or `Agent`)
   * that started it; complete once iteration has ended.
   */
  readonly subagents: ReadonlyMap<string, ClaudeCodeSubagent>;
}

/** What a reader shows while it reads: a normalizer's counts and subagents, or the objects one will fill. */
export interface ClaudeCodeReaderView {
  readonly stats: ClaudeCodeSessionStats;
  readonly subagents: { readonly byAgent: ReadonlyMap<string, ClaudeCodeSubagent> };
}

/** A reader over `iterate()`, which may be started once; `name` is the function to call again. */
export function onceReader(
  view: ClaudeCodeReaderView,
  name: string,
  iterate: () => AsyncIterator<SessionEntry>,
): ClaudeCodeSessionReader {
  let started = false;
  return {
    stats: view.stats,
    subagents: view.subagents.byAgent,
    [Symbol.asyncIterator]() {
      if (started) throw new ConfigurationError(`A Claude Code session reader can be iterated only once; call ${name} again to read it anew.`);
      started = true;
      return iterate();
    },
  };
}

/**
 * Reads the plan file backups the last line recorded, one at a time, and hands their text back
 * to the normalizer (which appends the entries to `out`). A failing read is a warning, never fatal.
 */
export async function readPendingBackups(
  normalizer: ClaudeCodeSessionNormalizer,
  readFileBackup: ReadClaudeCodeFileBackup,
  out: SessionEntry[],
): Promise<void> {
  for (const pending of normalizer.takeBackups()) {
    let text: string | undefined;
    let reason: string | undefined;
    try {
      const read: unknown = await readFileBackup(pending.backup);
      if (typeof read === 'string') text = read;
      else if (read !== undefined) reason = `readFileBackup returned ${read === null ? 'null' : typeof read}, not a string`;
    } catch (error) {
      reason = describeThrown(error);
    }
    normalizer.completeBackup(pending, text, out, reason);
  }
}
