// acceptEdits approves edits inside the workspace; without a workspace (`cwd`) no path is known to
// be inside it, so a path edit is asked (found in the permissions hardening round).
import { describe, expect, it, vi } from 'vitest';
import { decidePermission } from '../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import type { ToolPermissionCheck } from '../../src/types/permission.js';
import { editTool, makeArgs, makeTool } from './fixtures.js';

describe('acceptEdits without a workspace', () => {
  it.each(['/etc/passwd', '../outside.txt', '~/.bashrc', 'src/a.ts'])('asks for an edit of %j instead of approving it', async (path) => {
    const { args } = makeArgs({ tool: editTool, rawInput: { file_path: path }, mode: 'acceptEdits' });
    const outcome = await decidePermission(args);
    expect(outcome.decision.behavior).toBe('defer');
    expect(outcome.blockedPath).toBe(path);
  });

  it('the host is asked, with the path, and its answer stands', async () => {
    const canUseTool = vi.fn(async () => ({ behavior: 'deny' as const, message: 'no' }));
    const { args, events } = makeArgs({ tool: editTool, rawInput: { file_path: '/etc/hosts' }, mode: 'acceptEdits', canUseTool });
    const { decision } = await decidePermission(args);
    expect(decision).toMatchObject({ behavior: 'deny', reason: { type: 'callback' } });
    expect(canUseTool).toHaveBeenCalledWith('Edit', { file_path: '/etc/hosts' }, expect.objectContaining({ blockedPath: '/etc/hosts' }));
    expect(events[0]).toMatchObject({ type: 'permission-request', blockedPath: '/etc/hosts' });
  });

  it('an allow rule still allows, a deny rule still denies', async () => {
    const allowed = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: 'src/a.ts' }, mode: 'acceptEdits', rules: createRuleSet({ allow: ['Edit(src/**)'] }) }).args);
    expect(allowed.decision).toMatchObject({ behavior: 'allow', reason: { type: 'rule', rule: 'Edit(src/**)' } });
    const denied = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: 'src/a.ts' }, mode: 'acceptEdits', rules: createRuleSet({ deny: ['Edit(src/**)'] }) }).args);
    expect(denied.decision).toMatchObject({ behavior: 'deny', reason: { type: 'rule', rule: 'Edit(src/**)' } });
  });

  it('with a workspace, an edit inside it is still approved and one outside asked', async () => {
    const inside = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: 'src/a.ts' }, mode: 'acceptEdits', cwd: '/work/p' }).args);
    expect(inside.decision).toMatchObject({ behavior: 'allow', reason: { type: 'mode', mode: 'acceptEdits' } });
    const outside = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: '../x' }, mode: 'acceptEdits', cwd: '/work/p' }).args);
    expect(outside.decision.behavior).toBe('defer');
  });

  it("a tool with its own check knows its workspace: its passthrough is approved, its ask stands", async () => {
    const passthrough = { ...editTool, checkPermissions: (): ToolPermissionCheck => ({ behavior: 'passthrough' }) };
    const approved = await decidePermission(makeArgs({ tool: passthrough, rawInput: { file_path: 'a.ts' }, mode: 'acceptEdits' }).args);
    expect(approved.decision).toMatchObject({ behavior: 'allow', reason: { type: 'mode', mode: 'acceptEdits' } });
    const asking = { ...editTool, checkPermissions: (): ToolPermissionCheck => ({ behavior: 'ask', blockedPath: '/etc/x' }) };
    const asked = await decidePermission(makeArgs({ tool: asking, rawInput: { file_path: '/etc/x' }, mode: 'acceptEdits' }).args);
    expect(asked.decision.behavior).toBe('defer');
  });

  it('an edit-kind tool without a path (a document, not a file) is still approved', async () => {
    const documentTool = makeTool({ name: 'UpdateDoc', kind: 'edit' });
    const { decision } = await decidePermission(makeArgs({ tool: documentTool, rawInput: { value: 'x' }, mode: 'acceptEdits' }).args);
    expect(decision).toMatchObject({ behavior: 'allow', reason: { type: 'mode', mode: 'acceptEdits' } });
  });

  it("a host's own edit tool with a path target is asked without a workspace", async () => {
    const loose = makeTool({ name: 'Loose', kind: 'edit', ruleTarget: { field: 'value', kind: 'path' } });
    const { decision } = await decidePermission(makeArgs({ tool: loose, rawInput: { value: 'a' }, mode: 'acceptEdits' }).args);
    expect(decision.behavior).toBe('defer');
  });

  it("a tool check's question in acceptEdits is answered by allow rules as in default mode, then asked", async () => {
    const asking = { ...editTool, checkPermissions: (): ToolPermissionCheck => ({ behavior: 'ask', message: 'outside', blockedPath: '/srv/shared/a' }) };
    for (const mode of ['default', 'acceptEdits'] as const) {
      const ruled = await decidePermission(makeArgs({ tool: asking, rawInput: { file_path: '/srv/shared/a' }, mode, cwd: '/work/p', rules: createRuleSet({ allow: ['Edit(/srv/shared/**)'] }) }).args);
      expect(ruled.decision, mode).toMatchObject({ behavior: 'allow', reason: { type: 'rule', rule: 'Edit(/srv/shared/**)' } });
      const asked = await decidePermission(makeArgs({ tool: asking, rawInput: { file_path: '/srv/shared/a' }, mode, cwd: '/work/p' }).args);
      expect(asked, mode).toMatchObject({ decision: { behavior: 'defer', reason: { type: 'tool-check', message: 'outside' } }, blockedPath: '/srv/shared/a' });
    }
    const safety = { ...editTool, checkPermissions: (): ToolPermissionCheck => ({ behavior: 'ask', message: 'hard link', safety: true }) };
    const held = await decidePermission(makeArgs({ tool: safety, rawInput: { file_path: 'a' }, mode: 'acceptEdits', cwd: '/work/p', rules: createRuleSet({ allow: ['Edit'] }) }).args);
    expect(held.decision.behavior).toBe('defer');
  });
});

describe('the suggestions of an edit that acceptEdits would not approve', () => {
  /** The modes the "always allow" suggestions of an asked edit would switch to. */
  async function suggestedModes(options: { path: string; mode: 'default' | 'acceptEdits'; cwd?: string }): Promise<unknown[]> {
    const canUseTool = vi.fn(async () => ({ behavior: 'deny' as const, message: 'no' }));
    const { args } = makeArgs({ tool: editTool, rawInput: { file_path: options.path }, mode: options.mode, canUseTool, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
    await decidePermission(args);
    const context = (canUseTool.mock.calls[0] as unknown as [string, unknown, { suggestions: { type: string; mode?: string }[] }])[2];
    return context.suggestions.filter((update) => update.type === 'setMode').map((update) => update.mode);
  }

  it('offers acceptEdits for an edit inside the workspace in default mode', async () => {
    expect(await suggestedModes({ path: 'src/a.ts', mode: 'default', cwd: '/work/p' })).toEqual(['acceptEdits']);
  });

  it.each([
    { path: '../x', mode: 'default' as const, cwd: '/work/p' },
    { path: '/etc/hosts', mode: 'default' as const },
    { path: '/etc/hosts', mode: 'acceptEdits' as const },
    { path: '../x', mode: 'acceptEdits' as const, cwd: '/work/p' },
  ])('does not offer a switch to acceptEdits that would not approve it: $path in $mode, cwd $cwd', async (options) => {
    expect(await suggestedModes(options)).toEqual([]);
  });
});
