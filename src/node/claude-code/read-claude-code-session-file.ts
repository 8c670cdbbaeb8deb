import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { SessionEntry } from '../../state/entries.js';
import {
  ClaudeCodeSessionNormalizer,
  type ClaudeCodeSessionWarning,
} from '../../interop/claude-code/claude-code-session-normalizer.js';
import type { ClaudeCodeSessionReader } from '../../interop/claude-code/read-claude-code-session.js';

/** Options of {@link readClaudeCodeSessionFile}. */
export interface ReadClaudeCodeSessionFileOptions {
  /**
   * Also read the subagent sidechains Claude Code 2.x keeps beside the session, in
   * `<session>/subagents/*.jsonl` (sorted by name, after the session's own lines). Each keeps its
   * own `agentId`.
   * @default false
   */
  includeSubagents?: boolean;
  /**
   * Called for each malformed line (the line is skipped and counted); reading never fails because
   * of a bad line.
   * @default undefined
   */
  onWarning?: (warning: ClaudeCodeSessionWarning) => void;
}

/**
 * Reads a Claude Code session file (`~/.claude/projects/<project>/<session-id>.jsonl`) as
 * normalized `SessionEntry` objects, streaming it line by line with `node:readline`, so even a
 * session of hundreds of megabytes is read in bounded memory. See `readClaudeCodeSession` for
 * what the entries hold. I/O errors (a missing file) surface from the iteration.
 * @throws ConfigurationError when `path` is not a non-empty string.
 * @example
 * const reader = readClaudeCodeSessionFile(file, { includeSubagents: true });
 * const todos = await recoverTodos(reader);
 */
export function readClaudeCodeSessionFile(
  path: string,
  options: ReadClaudeCodeSessionFileOptions = {},
): ClaudeCodeSessionReader {
  if (typeof path !== 'string' || path.length === 0) {
    throw new ConfigurationError(`readClaudeCodeSessionFile needs the path of a .jsonl session file, got ${JSON.stringify(path)}.`);
  }
  const normalizer = new ClaudeCodeSessionNormalizer({ onWarning: options.onWarning });
  let started = false;
  return {
    stats: normalizer.stats,
    [Symbol.asyncIterator]() {
      if (started) {
        throw new ConfigurationError('A Claude Code session reader can be iterated only once; call readClaudeCodeSessionFile again to read it anew.');
      }
      started = true;
      return readFiles(normalizer, path, options.includeSubagents ?? false);
    },
  };
}

/** The subagent files of a session, `<dir>/<session>/subagents/*.jsonl`, sorted; none when absent. */
async function subagentFiles(path: string): Promise<string[]> {
  const folder = join(dirname(path), basename(path, '.jsonl'), 'subagents');
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
      .map((entry) => join(folder, entry.name))
      .sort();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT' || (error as { code?: unknown }).code === 'ENOTDIR') return [];
    throw error;
  }
}

/** `agent-a1b2c3.jsonl` → `a1b2c3`, used for sidechain lines that carry no `agentId` themselves. */
function agentIdOfFile(file: string): string | undefined {
  const match = /^agent-(.+)\.jsonl$/.exec(basename(file));
  return match?.[1];
}

async function* readFiles(
  normalizer: ClaudeCodeSessionNormalizer,
  path: string,
  includeSubagents: boolean,
): AsyncGenerator<SessionEntry, void, undefined> {
  const files = [path, ...(includeSubagents ? await subagentFiles(path) : [])];
  const out: SessionEntry[] = [];
  for (const [index, file] of files.entries()) {
    normalizer.beginSource({ source: file, defaultAgentId: index === 0 ? undefined : agentIdOfFile(file) });
    const stream = createReadStream(file, { encoding: 'utf8' });
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    try {
      let first = true;
      for await (let line of lines) {
        if (first) {
          first = false;
          if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
        }
        normalizer.push(line, out);
        if (out.length > 0) {
          for (const entry of out) yield entry;
          out.length = 0;
        }
      }
    } finally {
      lines.close();
      stream.destroy();
    }
    // Sidechain files are separate threads; nothing of one file waits for the next.
    normalizer.finish(out);
    for (const entry of out) yield entry;
    out.length = 0;
  }
}
