/**
 * Every place a Claude Code session keeps its plan, read through readClaudeCodeSession and then
 * recoverPlan. None of these shapes is in the fixtures (their sessions never approved a plan), so
 * the lines are synthetic, following the public descriptions:
 * - 1.0.x: the tool is `exit_plan_mode`, input `{ plan }`.
 * - 2.x: `ExitPlanMode`, input `{ plan, planFilePath }` (2.1.x; `allowedPrompts` optional), or
 *   no plan in the input at all — Claude Code reads it from the file — with the approved plan on
 *   the result line as `toolUseResult: { plan, isAgent, filePath }`; a rejection is an `is_error`
 *   result.
 * - After compaction the plan comes back only as a `plan_file_reference` attachment's
 *   `planContent`.
 * - File checkpoints: `file-history-snapshot` lines map the plan file's path
 *   (`~/.claude/plans/<slug>.md`, absolute since it is outside the project) to a backup name; the
 *   content is the file `~/.claude/file-history/<sessionId>/<backupFileName>`.
 */
import { describe, expect, it, vi } from 'vitest';
import { readClaudeCodeSession, type ReadClaudeCodeSessionOptions } from '../../../src/interop/claude-code/read-claude-code-session.js';
import { memoryPlanStore } from '../../../src/plan/memory-plan-store.js';
import { recoverPlan } from '../../../src/plan/recover-plan.js';
import type { PlanSnapshotEntry, SessionEntry } from '../../../src/state/entries.js';
import { assistant, call, fileHistorySnapshot, planFileReference, SESSION_ID, toolUse, user } from './claude-code-lines.js';

const SLUG = 'lexical-painting-whisper';
const PLAN_PATH = `/home/user/.claude/plans/${SLUG}.md`;
const rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected.";

async function recover(lines: string[], options: ReadClaudeCodeSessionOptions = {}, store = memoryPlanStore()) {
  return recoverPlan({ store, entries: readClaudeCodeSession(lines.join('\n'), options) });
}

async function read(lines: string[], options: ReadClaudeCodeSessionOptions = {}) {
  const entries: SessionEntry[] = [];
  for await (const entry of readClaudeCodeSession(lines.join('\n'), options)) entries.push(entry);
  return entries;
}

/** A file history that holds the given backups (name → text), as readFileBackup sees it. */
function fileHistory(backups: Record<string, string>) {
  return vi.fn(({ sessionId, backupFileName }: { sessionId: string; backupFileName: string }) => (sessionId === SESSION_ID ? backups[backupFileName] : undefined));
}

describe('plans in Claude Code sessions', () => {
  it('reads exit_plan_mode (1.0.x) and ExitPlanMode (2.x), approved only', async () => {
    expect(await recover([user('plan it'), ...call('exit_plan_mode', { plan: '# Old plan' }, 'User has approved your plan. You can now start coding.')])).toEqual({
      text: '# Old plan',
      source: 'exit-plan-mode',
    });
    const lines = [
      ...call('ExitPlanMode', { plan: '# Approved', planFilePath: PLAN_PATH, allowedPrompts: [{ tool: 'Bash', prompt: 'run tests' }] }, 'User has approved your plan.', {
        toolUseResult: { plan: '# Approved', isAgent: false, filePath: PLAN_PATH },
      }),
      ...call('ExitPlanMode', { plan: '# Rejected', planFilePath: PLAN_PATH }, rejected, { isError: true }),
    ];
    expect(await recover(lines)).toEqual({ text: '# Approved', source: 'exit-plan-mode', name: PLAN_PATH });
  });

  it('takes the plan from the result when the input has none, and from the named file when neither has it', async () => {
    const onlyOnResult = call('ExitPlanMode', { allowedPrompts: [] }, 'User has approved your plan.', { toolUseResult: { plan: '# From the result', isAgent: false, filePath: PLAN_PATH } });
    expect((await recover(onlyOnResult))?.text).toBe('# From the result');
    // Input as a JSON string (as some sessions record tool inputs).
    expect((await recover(call('ExitPlanMode', JSON.stringify({ plan: '# From a string' }), 'ok')))?.text).toBe('# From a string');
    // Only the file named: the plan store (e.g. a filePlanStore on ~/.claude/plans) answers for it.
    const onlyFile = call('ExitPlanMode', { planFilePath: `/elsewhere/plans/renamed-plan.md`, summary: 'Adds a login page' }, 'User has approved your plan.');
    const store = memoryPlanStore({ initial: { 'renamed-plan.md': '# From the file' } });
    expect(await recover(onlyFile, {}, store)).toEqual({ text: '# From the file', source: 'exit-plan-mode', name: '/elsewhere/plans/renamed-plan.md' });
    // A summary is not a plan.
    expect(await recover(onlyFile)).toBeUndefined();
  });

  it('recovers the plan a compaction brought back only as a plan_file_reference attachment', async () => {
    const lines = [
      user('before', { slug: SLUG }),
      JSON.stringify({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', sessionId: SESSION_ID, uuid: 'b1', timestamp: '2026-02-12T11:00:00.000Z' }),
      user('This session is being continued from a previous conversation...', { isCompactSummary: true, slug: SLUG }),
      planFileReference(PLAN_PATH, '# The plan, after compaction'),
    ];
    expect(await recover(lines)).toEqual({ text: '# The plan, after compaction', source: 'plan-reference', name: PLAN_PATH });
  });

  it('reads the plan file backups of file-history-snapshot lines as plan snapshots, each backup once', async () => {
    const readFileBackup = fileHistory({ 'a1b2c3d4e5f60718@v2': '# Plan as it was at the prompt' });
    const lines = [
      user('plan it', { slug: SLUG }),
      // Other tracked files are not plans; a null backup means the file did not exist yet.
      fileHistorySnapshot({ 'src/app.ts': { backupFileName: 'ffff0000ffff0000@v1', version: 1 }, [PLAN_PATH]: { backupFileName: null, version: 1 } }, true),
      fileHistorySnapshot({ 'src/app.ts': { backupFileName: 'ffff0000ffff0000@v1', version: 1 }, [PLAN_PATH]: { backupFileName: 'a1b2c3d4e5f60718@v2', version: 2 } }),
      // The next snapshot repeats the same backup: it is read once.
      fileHistorySnapshot({ [PLAN_PATH]: { backupFileName: 'a1b2c3d4e5f60718@v2', version: 2 } }),
      user('go on', { slug: SLUG }),
    ];
    const entries = await read(lines, { readFileBackup });
    const snapshots = entries.filter((entry): entry is PlanSnapshotEntry => entry.kind === 'plan-snapshot');
    expect(snapshots).toEqual([
      expect.objectContaining({ kind: 'plan-snapshot', slug: SLUG, name: `${SLUG}.md`, text: '# Plan as it was at the prompt', capturedFrom: 'file-history', sessionId: SESSION_ID }),
    ]);
    expect(readFileBackup).toHaveBeenCalledTimes(1);
    expect(readFileBackup).toHaveBeenCalledWith({ sessionId: SESSION_ID, filePath: PLAN_PATH, backupFileName: 'a1b2c3d4e5f60718@v2', version: 2, backupTime: '2026-02-12T10:00:00.000Z' });
    expect(await recover(lines, { readFileBackup })).toEqual({ text: '# Plan as it was at the prompt', source: 'snapshot', name: `${SLUG}.md` });
    // Without a reader of backups, the lines are skipped and the other sources answer.
    expect(await recover(lines)).toBeUndefined();
  });

  it('keeps the documented order: the store, then the file snapshot, then ExitPlanMode, planContent, the attachment', async () => {
    const readFileBackup = fileHistory({ 'c0ffee00c0ffee00@v3': '# From the file history' });
    const lines = [
      user('revise the plan', { slug: SLUG }),
      ...call('ExitPlanMode', { plan: '# From ExitPlanMode' }, 'User has approved your plan.'),
      user('Implement the following plan: ...', { planContent: '# From planContent', slug: SLUG }),
      planFileReference(PLAN_PATH, '# From the attachment'),
      // Taken at the next prompt: the file as it was after all of the above.
      fileHistorySnapshot({ [PLAN_PATH]: { backupFileName: 'c0ffee00c0ffee00@v3', version: 3 } }),
    ];
    const store = memoryPlanStore({ initial: { [`${SLUG}.md`]: '# From the store' } });
    expect((await recover(lines, { readFileBackup }, store))?.source).toBe('store');
    expect(await recover(lines, { readFileBackup })).toMatchObject({ source: 'snapshot', text: '# From the file history' });
    expect(await recover(lines)).toMatchObject({ source: 'exit-plan-mode', text: '# From ExitPlanMode' });
  });

  it('lets a plan approved after a file-history copy supersede it (the copy was the file before the turn)', async () => {
    const readFileBackup = fileHistory({ '0123456789abcdef@v2': '# The previous plan' });
    const lines = [
      user('make a new plan', { slug: SLUG }),
      fileHistorySnapshot({ [PLAN_PATH]: { backupFileName: '0123456789abcdef@v2', version: 2 } }),
      ...call('ExitPlanMode', {}, 'User has approved your plan.', { toolUseResult: { plan: '# The new plan', isAgent: false, filePath: PLAN_PATH } }),
    ];
    expect(await recover(lines, { readFileBackup })).toMatchObject({ source: 'exit-plan-mode', text: '# The new plan' });
    // A rejected proposal does not supersede it.
    const rejectedLater = [...lines.slice(0, 2), ...call('ExitPlanMode', { plan: '# Refused' }, rejected, { isError: true })];
    expect(await recover(rejectedLater, { readFileBackup })).toMatchObject({ source: 'snapshot', text: '# The previous plan' });
  });

  it("gives a subagent's plan file ({slug}-agent-{id}.md) to that subagent", async () => {
    const readFileBackup = fileHistory({ 'aaaabbbbccccdddd@v1': '# Sub plan' });
    const lines = [user('x', { slug: SLUG }), fileHistorySnapshot({ [`/home/user/.claude/plans/${SLUG}-agent-a77.md`]: { backupFileName: 'aaaabbbbccccdddd@v1', version: 1 } })];
    const entries = await read(lines, { readFileBackup });
    expect(entries.find((entry) => entry.kind === 'plan-snapshot')).toMatchObject({ agentId: 'a77', name: `${SLUG}-agent-a77.md`, slug: SLUG });
    expect(await recoverPlan({ entries, agentId: 'a77' })).toMatchObject({ text: '# Sub plan', source: 'snapshot' });
    expect(await recoverPlan({ entries })).toBeUndefined();
  });

  it('knows plan files by the paths the session named, also under a project plans directory', async () => {
    const readFileBackup = fileHistory({ '1111222233334444@v1': '# Project-local plan' });
    const lines = [
      JSON.stringify({ type: 'attachment', attachment: { type: 'plan_mode', planFilePath: '/repo/.claude/plans/quiet-otter.md', planExists: false }, uuid: 'att1', sessionId: SESSION_ID }),
      fileHistorySnapshot({ '.claude/plans/quiet-otter.md': { backupFileName: '1111222233334444@v1', version: 1 }, 'docs/plans/roadmap.md': { backupFileName: '5555666677778888@v1', version: 1 } }),
    ];
    const entries = await read(lines, { readFileBackup });
    expect(entries.filter((entry) => entry.kind === 'plan-snapshot')).toEqual([expect.objectContaining({ name: 'quiet-otter.md', slug: 'quiet-otter', text: '# Project-local plan' })]);
    expect(readFileBackup).toHaveBeenCalledTimes(1);
  });

  it('warns when a backup cannot be read, and never asks for a name that is a path', async () => {
    const warnings: string[] = [];
    const readFileBackup = vi.fn(() => {
      throw new Error('the disk is gone');
    });
    const lines = [
      user('x', { slug: SLUG }),
      fileHistorySnapshot({ [PLAN_PATH]: { backupFileName: '9999888877776666@v4', version: 4 } }),
      fileHistorySnapshot({ [`/p/${SLUG}.md`]: { backupFileName: '../../../../etc/passwd', version: 5 } }),
      fileHistorySnapshot({ [`/q/${SLUG}.md`]: { backupFileName: 42, version: 'x' } }),
    ];
    const entries = await read(lines, { readFileBackup, onWarning: (warning) => warnings.push(warning.message) });
    expect(entries.some((entry) => entry.kind === 'plan-snapshot')).toBe(false);
    expect(readFileBackup).toHaveBeenCalledTimes(1);
    expect(warnings).toEqual([expect.stringMatching(/^Line 2: the backup 9999888877776666@v4 of the plan file .* could not be read \(the disk is gone\)/)]);
    // A reader answering something other than text is reported the same way.
    const odd = vi.fn(() => 42 as never);
    const oddWarnings: string[] = [];
    await read(lines.slice(0, 2), { readFileBackup: odd, onWarning: (warning) => oddWarnings.push(warning.message) });
    expect(oddWarnings).toEqual([expect.stringContaining('returned number, not a string')]);
  });

  it('yields a backup read after the line that recorded it, in order, even inside a split message', async () => {
    const readFileBackup = fileHistory({ 'abcdabcdabcdabcd@v1': '# Plan' });
    const lines = [
      user('x', { slug: SLUG }),
      assistant('msg_1', { type: 'text', text: 'Editing the plan.' }),
      fileHistorySnapshot({ [PLAN_PATH]: { backupFileName: 'abcdabcdabcdabcd@v1', version: 1 } }, true),
      assistant('msg_1', toolUse('toolu_1', 'Edit', { file_path: PLAN_PATH, old_string: 'a', new_string: 'b' })),
      user('next'),
    ];
    const entries = await read(lines, { readFileBackup });
    expect(entries.map((entry) => entry.kind)).toEqual(['session-meta', 'message', 'message', 'plan-snapshot', 'message']);
    expect((entries[2] as { message: { content: unknown[] } }).message.content).toHaveLength(2);
  });
});
