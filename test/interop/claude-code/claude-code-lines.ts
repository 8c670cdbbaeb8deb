/**
 * Synthetic Claude Code session lines for shapes the real fixtures lack (task tools, plan files,
 * file history with a plan, permission-mode lines). Each builder follows the public description
 * of the format, cited where it is used:
 * - line envelope (`parentUuid`, `isSidechain`, `userType`, `cwd`, `sessionId`, `version`,
 *   `type`, `message`, `uuid`, `timestamp`, `slug`): the 2.1.x fixtures in
 *   ../shared/fixtures/claude-code-transcripts/spotter, and pedropaulovc/claude-code-types
 *   (`EntryBase`, `UserEntry`, `AssistantEntry`);
 * - `file-history-snapshot` (`messageId`, `isSnapshotUpdate`, `snapshot.trackedFileBackups`
 *   mapping a tracked path to `{ backupFileName: '<hash>@v<n>' | null, version, backupTime }`):
 *   the spotter fixtures and claude-code-types `FileHistorySnapshotEntry` / `FileBackup`; the
 *   backup itself lives at `~/.claude/file-history/<sessionId>/<backupFileName>`;
 * - `permission-mode` lines `{ type, permissionMode, sessionId }` (no uuid, no timestamp):
 *   claude-code-types `PermissionModeEntry`;
 * - attachments `{ type: 'attachment', attachment: { type: 'plan_file_reference', planFilePath,
 *   planContent } }`: claude-code-types `PlanFileReferenceAttachment`.
 */
let counter = 0;
export const SESSION_ID = '3f1c2a9e-5b7d-4e0f-9a1b-2c3d4e5f6a7b';

/** The envelope every conversation line carries. */
export function envelope(extra: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/user/project',
    sessionId: SESSION_ID,
    version: '2.1.39',
    gitBranch: 'main',
    uuid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    timestamp: new Date(Date.UTC(2026, 1, 12, 10, 0, counter)).toISOString(),
    ...extra,
  };
}

const usage = (output: number) => ({ input_tokens: 3, output_tokens: output, cache_read_input_tokens: 100, cache_creation_input_tokens: 7, service_tier: 'standard' });

/** One assistant line (Claude Code writes one per content block, sharing `message.id`). */
export function assistant(messageId: string, block: object, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    ...envelope(extra),
    type: 'assistant',
    requestId: `req_${messageId}`,
    message: { model: 'claude-opus-4-6', id: messageId, type: 'message', role: 'assistant', content: [block], stop_reason: null, stop_sequence: null, usage: usage(5) },
  });
}

/** A `tool_use` block. */
export function toolUse(id: string, name: string, input: unknown): object {
  return { type: 'tool_use', id, name, input };
}

/** A user line: a prompt (string) or blocks. */
export function user(content: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...envelope(extra), type: 'user', message: { role: 'user', content } });
}

/** A tool result line, with Claude Code's structured `toolUseResult` when given. */
export function result(toolUseId: string, content: string, options: { toolUseResult?: unknown; isError?: boolean; extra?: Record<string, unknown> } = {}): string {
  return user([{ tool_use_id: toolUseId, type: 'tool_result', content, ...(options.isError ? { is_error: true } : {}) }], {
    ...(options.toolUseResult !== undefined ? { toolUseResult: options.toolUseResult } : {}),
    ...options.extra,
  });
}

/** A call and its result, as two messages. */
export function call(name: string, input: unknown, resultText: string, options: { toolUseResult?: unknown; isError?: boolean; extra?: Record<string, unknown> } = {}): string[] {
  counter++;
  const id = `toolu_${String(counter).padStart(6, '0')}`;
  return [assistant(`msg_${id}`, toolUse(id, name, input), options.extra), result(id, resultText, options)];
}

/** A `file-history-snapshot` line mapping tracked paths to backups. */
export function fileHistorySnapshot(backups: Record<string, { backupFileName: string | null; version: number } | unknown>, isSnapshotUpdate = false): string {
  counter++;
  const messageId = `00000000-0000-4000-9000-${String(counter).padStart(12, '0')}`;
  const trackedFileBackups = Object.fromEntries(
    Object.entries(backups).map(([path, backup]) => [path, typeof backup === 'object' && backup !== null ? { ...backup, backupTime: '2026-02-12T10:00:00.000Z' } : backup]),
  );
  return JSON.stringify({ type: 'file-history-snapshot', messageId, snapshot: { messageId, trackedFileBackups, timestamp: '2026-02-12T10:00:00.000Z' }, isSnapshotUpdate });
}

/** A `permission-mode` line. */
export function permissionMode(mode: unknown): string {
  return JSON.stringify({ type: 'permission-mode', permissionMode: mode, sessionId: SESSION_ID });
}

/** A `plan_file_reference` attachment line (how the plan comes back after compaction). */
export function planFileReference(planFilePath: string, planContent: string): string {
  return JSON.stringify({ ...envelope(), type: 'attachment', attachment: { type: 'plan_file_reference', planFilePath, planContent } });
}
