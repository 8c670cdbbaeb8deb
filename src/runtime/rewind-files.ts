import { ConfigurationError } from '../errors/index.js';
import { ToolUseIdIndex } from '../history/tool-use-id-index.js';
import { dropFileCheckpoints, fileCheckpointsForgotten, listFileCheckpoints, MAX_FILE_CHECKPOINTS, type FileCheckpoint } from '../tools/file-checkpoints.js';
import type { AgentCore } from './agent-core.js';
import { describeThrown } from '../errors/describe-thrown.js';

/** Options of `agent.rewindFiles`. */
export interface RewindFilesOptions {
  /**
   * The point of the conversation to go back to: an index into `agent.messages`. Every file
   * change made by a tool call of that message or a later one is undone, so the files are as
   * they were when that message was the latest (give the index of a user message to undo
   * everything done in answer to it). What a subagent changed counts as a change of the `Agent`
   * call that started it (a background subagent's too, whenever it made the change).
   */
  toMessage: number;
  /**
   * Only report what would be restored; change no file and keep the checkpoints.
   * @default false
   */
  dryRun?: boolean;
  /**
   * Stops the rewind between files: the file being put back is finished (never left
   * half-written), the files not reached are reported in `skipped` and keep their checkpoints,
   * so a later rewind can still put them back; `interrupted` is then true. `agent.interrupt()`
   * and `agent.close()` stop a rewind the same way.
   * @default undefined (runs to the end unless the agent is interrupted or closed)
   */
  signal?: AbortSignal;
}

/** A file `agent.rewindFiles` put back. */
export interface RewoundFile {
  /** The file, as the tool that changed it recorded it (the workspace tools: its real path). */
  path: string;
  /** `restored`: its earlier content was written back; `deleted`: it did not exist then and was removed. */
  action: 'restored' | 'deleted';
  /** The tool that changed it and put it back. */
  toolName: string;
}

/** A file `agent.rewindFiles` could not put back, and why. */
export interface SkippedFile {
  path: string;
  /** A sentence for the user, e.g. that the earlier version was too large to keep. */
  reason: string;
}

/** What `agent.rewindFiles` did (or, with `dryRun`, would do). */
export interface RewindFilesResult {
  restored: RewoundFile[];
  skipped: SkippedFile[];
  /** True when the rewind was stopped (its `signal`, `agent.interrupt()`, `agent.close()`) before every file was put back; those not reached are in `skipped`. */
  interrupted: boolean;
}

/** Why a file the rewind did not reach was left as it is. */
const REWIND_STOPPED_REASON = 'The rewind was stopped before it reached this file, so it was left as it is; rewind again to put it back.';

const OPTION_NAMES = ['toMessage', 'dryRun', 'signal'];

function validateRewindOptions(options: RewindFilesOptions, messageCount: number): void {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError('rewindFiles({ toMessage }) needs an options object, e.g. rewindFiles({ toMessage: 4 }).');
  }
  const unknown = Object.keys(options).filter((key) => !OPTION_NAMES.includes(key));
  if (unknown.length > 0) throw new ConfigurationError(`rewindFiles: unknown option \`${unknown[0]}\`; the options are \`toMessage\`, \`dryRun\` and \`signal\`.`);
  const { toMessage } = options;
  if (typeof toMessage !== 'number' || !Number.isInteger(toMessage) || toMessage < 0 || toMessage > messageCount) {
    throw new ConfigurationError(
      `rewindFiles: \`toMessage\` must be an index into agent.messages, an integer from 0 to ${messageCount}, got ${JSON.stringify(toMessage) ?? String(toMessage)}.`,
    );
  }
  if (options.dryRun !== undefined && typeof options.dryRun !== 'boolean') {
    throw new ConfigurationError(`rewindFiles: \`dryRun\` must be a boolean, got ${JSON.stringify(options.dryRun)}.`);
  }
  // Shaped like one is enough: a polyfill's, or one from another realm, is not an instance of this AbortSignal.
  const signal = options.signal as { aborted?: unknown; addEventListener?: unknown } | null | undefined;
  if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
    throw new ConfigurationError(`rewindFiles: \`signal\` must be an AbortSignal (e.g. new AbortController().signal), got ${signal === null ? 'null' : typeof signal}.`);
  }
}

/**
 * Puts files back as they were at an earlier point of the conversation, from the checkpoints the
 * tools kept before changing them (see `recordFileCheckpoint`). The model is told, in the next
 * user message, which files were put back, so it does not believe its edits are still there.
 * Stopped (`options.signal`, or `stop`: the agent interrupted or closed), it stops between files.
 * @param stop - the agent's own stop (`agent.interrupt()`, `agent.close()`).
 */
export async function rewindFiles(core: AgentCore, options: RewindFilesOptions, stop?: AbortSignal): Promise<RewindFilesResult> {
  validateRewindOptions(options, core.state.messages.length);
  // The calls made in `messages[toMessage]` and later.
  const undone = new ToolUseIdIndex().idsIn(core.state.messages.slice(options.toMessage));
  const kept = listFileCheckpoints(core.toolState);
  const checkpoints = kept.filter((checkpoint) => undone.has(checkpoint.toolUseId));
  // Records older than the oldest kept one were dropped: a rewind reaching back to it may need them.
  const beyondKept = fileCheckpointsForgotten(core.toolState) && kept[0] !== undefined && undone.has(kept[0].toolUseId);
  // The earliest change after the point holds the content the file had at that point.
  const earliest = new Map<string, FileCheckpoint>();
  for (const checkpoint of checkpoints) if (!earliest.has(checkpoint.path)) earliest.set(checkpoint.path, checkpoint);

  const result: RewindFilesResult = { restored: [], skipped: [], interrupted: false };
  const consumed: number[] = [];
  for (const [path, checkpoint] of earliest) {
    // Between files only: a file is never left half-written.
    if (result.interrupted || options.signal?.aborted || stop?.aborted) {
      result.interrupted = true;
      result.skipped.push({ path, reason: REWIND_STOPPED_REASON });
      continue;
    }
    const tool = core.tools.get(checkpoint.toolName);
    if (beyondKept) {
      result.skipped.push({ path, reason: `The rewind reaches back beyond the ${MAX_FILE_CHECKPOINTS} most recent file changes this session keeps, so earlier versions may be missing.` });
      continue;
    }
    if (checkpoint.omitted === 'evicted') {
      result.skipped.push({ path, reason: 'Its earlier version was dropped to keep the session\'s checkpoints within their size bound (workspaceTools `checkpoints.maxBytes`).' });
      continue;
    }
    if (checkpoint.omitted === 'too-large') {
      result.skipped.push({ path, reason: `Its earlier version (${checkpoint.bytes} bytes) was larger than the checkpoint limit, so it was not kept.` });
      continue;
    }
    if (!tool?.restoreFile) {
      result.skipped.push({ path, reason: `The tool ${checkpoint.toolName} that changed it is not among this agent's tools (or cannot restore files).` });
      continue;
    }
    const action = checkpoint.before === null ? 'deleted' : 'restored';
    if (!options.dryRun) {
      try {
        await tool.restoreFile({ path, content: checkpoint.before, agent: core.toolContext });
      } catch (error) {
        result.skipped.push({ path, reason: `Restoring it failed: ${describeThrown(error)}` });
        continue;
      }
      for (const other of checkpoints) if (other.path === path) consumed.push(other.id);
    }
    result.restored.push({ path, action, toolName: checkpoint.toolName });
  }
  if (!options.dryRun && result.restored.length > 0) {
    dropFileCheckpoints(core.toolState, consumed);
    const lines = result.restored.map((file) => `- ${file.path} (${file.action === 'deleted' ? 'removed: it did not exist then' : 'earlier content restored'})`);
    core.commit({
      kind: 'reminder',
      text: `The user rewound files to an earlier point of the conversation; your later changes to them are gone. Read a file again before editing it.\n${lines.join('\n')}`,
    });
  }
  return result;
}
