/**
 * Permission modes and subagent links. Mode shapes: `permission-mode` lines
 * `{ type: 'permission-mode', permissionMode, sessionId }` (no uuid, no timestamp; newer 2.x) and
 * a prompt's `permissionMode` field (2.1.x fixtures). Subagent shapes: the `Task` call's result
 * carries `toolUseResult.agentId` and `progress` lines of `data.type: 'agent_progress'` name
 * `data.agentId` and `parentToolUseID` (2.1.x fixtures); later versions call the tool `Agent`;
 * 1.x inline sidechains start with the call's `prompt` as their first user message.
 */
import { describe, expect, it } from 'vitest';
import { readClaudeCodeSession } from '../../../src/interop/claude-code/read-claude-code-session.js';
import { foldEntries } from '../../../src/state/fold-entries.js';
import type { ModeChangeEntry, SessionEntry } from '../../../src/state/entries.js';
import { assistant, envelope, permissionMode, result, toolUse, user } from './claude-code-lines.js';

async function read(lines: string[]) {
  const reader = readClaudeCodeSession(lines.join('\n'));
  const entries: SessionEntry[] = [];
  const warnings: string[] = [];
  const warned = readClaudeCodeSession(lines.join('\n'), { onWarning: (warning) => warnings.push(warning.message) });
  for await (const entry of reader) entries.push(entry);
  for await (const _entry of warned) {
    // read for the warnings
  }
  return { entries, warnings, subagents: reader.subagents, stats: reader.stats };
}

const modes = (entries: SessionEntry[]) => entries.filter((entry): entry is ModeChangeEntry => entry.kind === 'mode-change').map(({ from, to, prePlanMode }) => ({ from, to, prePlanMode }));

describe('permission modes', () => {
  it('turns permission-mode lines and prompts in a mode into mode-change entries, only on change', async () => {
    const { entries, stats } = await read([
      user('start', { permissionMode: 'default' }),
      permissionMode('plan'),
      user('plan the change', { permissionMode: 'plan' }),
      permissionMode('plan'),
      permissionMode('acceptEdits'),
      user('go', { permissionMode: 'bypassPermissions' }),
    ]);
    expect(modes(entries)).toEqual([
      { from: 'default', to: 'plan', prePlanMode: 'default' },
      { from: 'plan', to: 'acceptEdits', prePlanMode: undefined },
      { from: 'acceptEdits', to: 'bypassPermissions', prePlanMode: undefined },
    ]);
    expect(entries.find((entry) => entry.kind === 'mode-change')).toMatchObject({ reason: 'claude-code', sessionId: expect.any(String) });
    // The mode change comes before the prompt sent in it.
    const last = entries.findIndex((entry) => entry.kind === 'mode-change' && entry.to === 'bypassPermissions');
    expect(entries[last + 1]).toMatchObject({ kind: 'message', message: { content: 'go' } });
    expect(stats.skippedByKind).toEqual({ 'permission-mode': 1 });
    // A resume from these entries lands in the session's last mode.
    expect(foldEntries(entries, { sessionId: 's' }).permissionMode).toBe('bypassPermissions');
  });

  it('ignores a mode it does not know, with a warning', async () => {
    const { entries, warnings } = await read([permissionMode('yolo'), permissionMode(7), user('hi', { permissionMode: { mode: 'plan' } })]);
    expect(modes(entries)).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(/^Line 1: the permission mode "yolo" is not one this library knows/),
      expect.stringMatching(/^Line 2: the permission mode 7 /),
      expect.stringMatching(/^Line 3: the permission mode \{"mode":"plan"\} /),
    ]);
  });

  it('does not split a message whose lines straddle a mode change', async () => {
    const { entries } = await read([
      assistant('msg_1', { type: 'text', text: 'a' }),
      permissionMode('plan'),
      assistant('msg_1', { type: 'text', text: 'b' }),
      user('next'),
    ]);
    expect(entries.map((entry) => entry.kind)).toEqual(['message', 'mode-change', 'message']);
    expect((entries[0] as { message: { content: unknown[] } }).message.content).toHaveLength(2);
  });
});

describe('subagent links', () => {
  it('links a 2.x subagent to its Task or Agent call, by the result and by progress lines', async () => {
    const { subagents } = await read([
      assistant('msg_1', toolUse('toolu_task', 'Task', { description: 'Check versions', prompt: 'Look up...', subagent_type: 'general-purpose' })),
      assistant('msg_1', toolUse('toolu_agent', 'Agent', { description: 'Explore', prompt: 'Find...', subagent_type: 'Explore' })),
      JSON.stringify({ ...envelope(), type: 'progress', data: { type: 'agent_progress', agentId: 'b22', prompt: 'Find...' }, parentToolUseID: 'toolu_agent', toolUseID: 'agent_msg_x' }),
      result('toolu_task', 'Versions: ...', { toolUseResult: { status: 'completed', agentId: 'a11', prompt: 'Look up...', content: [] } }),
      result('toolu_agent', 'Found.', { toolUseResult: { status: 'completed', agentId: 'b22' } }),
    ]);
    expect([...subagents.values()]).toEqual([
      { agentId: 'b22', toolUseId: 'toolu_agent', toolName: 'Agent', subagentType: 'Explore', description: 'Explore' },
      { agentId: 'a11', toolUseId: 'toolu_task', toolName: 'Task', subagentType: 'general-purpose', description: 'Check versions' },
    ]);
  });

  it('links 1.x inline sidechains to their calls by prompt', async () => {
    const side = (content: string, uuid: string, parentUuid: string | null) => JSON.stringify({ ...envelope({ uuid, parentUuid, isSidechain: true }), type: 'user', message: { role: 'user', content } });
    const { subagents, entries } = await read([
      assistant('msg_1', toolUse('toolu_1', 'Task', { description: 'One', prompt: 'Do one' })),
      assistant('msg_1', toolUse('toolu_2', 'Task', { description: 'Two', prompt: 'Do two' })),
      side('Do two', 's2', null),
      side('Do one', 's1', null),
      side('Do one', 's3', null), // same prompt again: the call is taken
      result('toolu_1', 'one done'),
      result('toolu_2', 'two done'),
    ]);
    expect(subagents.get('s1')).toMatchObject({ toolUseId: 'toolu_1', description: 'One' });
    expect(subagents.get('s2')).toMatchObject({ toolUseId: 'toolu_2', description: 'Two' });
    expect(subagents.has('s3')).toBe(false);
    expect(new Set(entries.map((entry) => entry.agentId))).toEqual(new Set([undefined, 's1', 's2', 's3']));
  });
});
