import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { ConfigurationError } from '../../errors/configuration-error.js';
import {
  ClaudeCodeSessionNormalizer,
  onceReader,
  readPendingBackups,
  type ClaudeCodeSessionReader,
  type ClaudeCodeSessionWarning,
  type ReadClaudeCodeFileBackup,
} from '../../interop/claude-code/index.js';
import type { SessionEntry } from '../../state/entries.js';
import { fileHistoryBackupReader, inferFileHistoryDir } from './read-file-history-backup.js';
import { anything, checkOptions, isBoolean, isFunction, type OptionsSpec } from '../../options/index.js';

/** Options of {@link readClaudeCodeSessionFile}. */
export interface ReadClaudeCodeSessionFileOptions {
  /**
   * Also read the subagent sidechains Claude Code 2.x keeps beside the session, in
   * `<session>/subagents/*.jsonl` (sorted by name, after the session's own lines). Each keeps its
   * own `agentId`; `reader.subagents` says which `Task` or `Agent` call started it.
   * @default false
   */
  includeSubagents?: boolean;
  /**
   * Called for each problem with a line (see `readClaudeCodeSession`); reading never fails
   * because of a bad line.
   * @default undefined
   */
  onWarning?: (warning: ClaudeCodeSessionWarning) => void;
  /**
   * Claude Code's file checkpoint folder (`~/.claude/file-history`), where the backups of the plan
   * file recorded in `file-history-snapshot` lines are read (`<dir>/<sessionId>/<backupFileName>`),
   * becoming `plan-snapshot` entries; `false` to leave them out.
   * @default `<claude dir>/file-history` when the session file is in `<claude dir>/projects/<project>/` and that folder exists; else none
   */
  fileHistoryDir?: string | false;
}

const OPTIONS: OptionsSpec<ReadClaudeCodeSessionFileOptions> = {
  includeSubagents: isBoolean,
  onWarning: isFunction,
  fileHistoryDir: anything, // checked below, with its own message
};

/**
 * Reads a Claude Code session file (`~/.claude/projects/<project>/<session-id>.jsonl`) as
 * normalized `SessionEntry` objects, streaming it line by line with `node:readline`, so even a
 * session of hundreds of megabytes is read in bounded memory. See `readClaudeCodeSession` for
 * what the entries hold; lines without a session id get the file's name. I/O errors (a missing
 * file) surface from the iteration.
 * @throws ConfigurationError when `path` is not a non-empty string, or `fileHistoryDir` is neither a string nor false.
 * @example
 * const reader = readClaudeCodeSessionFile(file, { includeSubagents: true });
 * const todos = await recoverTodos({ entries: reader });
 */
export function readClaudeCodeSessionFile(path: string, options: ReadClaudeCodeSessionFileOptions = {}): ClaudeCodeSessionReader {
  checkOptions<ReadClaudeCodeSessionFileOptions>(options, OPTIONS, { owner: 'readClaudeCodeSessionFile', optional: true });
  if (typeof path !== 'string' || path.length === 0) {
    throw new ConfigurationError(`readClaudeCodeSessionFile needs the path of a .jsonl session file, got ${JSON.stringify(path)}.`);
  }
  const { fileHistoryDir } = options;
  if (fileHistoryDir !== undefined && fileHistoryDir !== false && (typeof fileHistoryDir !== 'string' || fileHistoryDir.length === 0)) {
    throw new ConfigurationError(`readClaudeCodeSessionFile's fileHistoryDir must be a folder path or false, got ${JSON.stringify(fileHistoryDir)}.`);
  }
  const normalizer = new ClaudeCodeSessionNormalizer({
    onWarning: options.onWarning,
    sessionId: basename(path, '.jsonl'),
    readsFileBackups: fileHistoryDir !== false,
  });
  return onceReader(normalizer, 'readClaudeCodeSessionFile', () => readFiles(normalizer, path, options));
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

async function backupReader(path: string, option: string | false | undefined): Promise<ReadClaudeCodeFileBackup | undefined> {
  if (option === false) return undefined;
  const dir = option ?? (await inferFileHistoryDir(path));
  return dir === undefined ? undefined : fileHistoryBackupReader(dir);
}

async function* readFiles(
  normalizer: ClaudeCodeSessionNormalizer,
  path: string,
  options: ReadClaudeCodeSessionFileOptions,
): AsyncGenerator<SessionEntry, void, undefined> {
  const readFileBackup = await backupReader(path, options.fileHistoryDir);
  normalizer.readsFileBackups = readFileBackup !== undefined;
  const files = [path, ...(options.includeSubagents ? await subagentFiles(path) : [])];
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
        if (readFileBackup) await readPendingBackups(normalizer, readFileBackup, out);
        if (out.length > 0) {
          yield* out;
          out.length = 0;
        }
      }
    } finally {
      lines.close();
      stream.destroy();
    }
    // Sidechain files are separate threads; nothing of one file waits for the next.
    normalizer.finish(out);
    yield* out;
    out.length = 0;
  }
}
