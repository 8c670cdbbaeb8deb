import { describe, expect, it, vi } from 'vitest';
import type { PreToolUseHookInput } from '../../src/hooks/types.js';
import type { CanUseToolContext } from '../../src/types/permission.js';
import { createPlanPhase, planPhaseDenialMessage } from '../../src/plan/plan-phase.js';

const tools = [
  { name: 'read_profile', readOnly: true, kind: 'read' as const },
  { name: 'search_notes', readOnly: false, kind: 'read' as const },
  { name: 'write_draft', readOnly: false, kind: 'edit' as const },
  { name: 'publish', readOnly: false, kind: 'other' as const },
];

function hookInput(toolName: string, extra: Record<string, unknown> = {}): PreToolUseHookInput {
  return { hookEventName: 'PreToolUse', sessionId: 's', signal: new AbortController().signal, toolName, toolInput: { a: 1 }, toolUseId: 'toolu_1', permissionMode: 'acceptEdits', ...extra };
}

const context: CanUseToolContext = { signal: new AbortController().signal, toolUseId: 'toolu_1', reason: { type: 'default' }, suggestions: [] };

describe('createPlanPhase', () => {
  it('is off until begin(), and off again after end()', () => {
    const phase = createPlanPhase({ tools });
    expect(phase.active).toBe(false);
    expect(phase.denies({ toolName: 'write_draft', input: {} })).toBe(false);
    phase.begin();
    expect(phase.active).toBe(true);
    expect(phase.denies({ toolName: 'write_draft', input: {} })).toBe(true);
    phase.end();
    expect(phase.denies({ toolName: 'write_draft', input: {} })).toBe(false);
    expect(createPlanPhase({ active: true }).active).toBe(true);
  });

  it('denies write tools through the PreToolUse hook with a message that keeps the model exploring', async () => {
    const phase = createPlanPhase({ tools, active: true });
    const [entry] = phase.hooks.PreToolUse;
    expect(entry?.matcher).toBeUndefined();
    const output = await entry!.hook(hookInput('write_draft'));
    expect(output).toEqual({ decision: 'deny', reason: planPhaseDenialMessage('write_draft') });
    expect(planPhaseDenialMessage('write_draft')).toMatch(/read-only/);
    expect(planPhaseDenialMessage('write_draft')).toMatch(/after the plan is approved/);
    expect(await entry!.hook(hookInput('publish'))).toMatchObject({ decision: 'deny' });
    // No opinion on read tools: the rest of the pipeline decides.
    expect(await entry!.hook(hookInput('read_profile'))).toEqual({});
    expect(await entry!.hook(hookInput('search_notes'))).toEqual({});
  });

  it('uses tool details from the hook input when present', async () => {
    const phase = createPlanPhase({ active: true });
    const hook = phase.hooks.PreToolUse[0]!.hook;
    expect(await hook(hookInput('custom', { tool: { readOnly: true, kind: 'read' } }))).toEqual({});
    expect(await hook(hookInput('custom', { tool: { readOnly: false, kind: 'edit' } }))).toMatchObject({ decision: 'deny' });
  });

  it('knows common read tools by name and treats unknown tools as writing', async () => {
    const phase = createPlanPhase({ active: true });
    const hook = phase.hooks.PreToolUse[0]!.hook;
    for (const name of ['Read', 'Grep', 'Glob', 'TodoWrite']) expect(await hook(hookInput(name))).toEqual({});
    expect(await hook(hookInput('Write'))).toMatchObject({ decision: 'deny' });
    expect(await hook(hookInput('mystery'))).toMatchObject({ decision: 'deny' });
  });

  it('wraps canUseTool: write calls are denied without asking, the rest pass through', async () => {
    const canUseTool = vi.fn(async () => ({ behavior: 'allow' as const }));
    const phase = createPlanPhase({ tools });
    const wrapped = phase.wrap(canUseTool);
    expect(await wrapped('write_draft', {}, context)).toEqual({ behavior: 'allow' });
    phase.begin();
    expect(await wrapped('write_draft', { text: 'x' }, context)).toEqual({ behavior: 'deny', message: planPhaseDenialMessage('write_draft') });
    expect(canUseTool).toHaveBeenCalledTimes(1);
    expect(await wrapped('read_profile', { id: 1 }, context)).toEqual({ behavior: 'allow' });
    expect(canUseTool).toHaveBeenLastCalledWith('read_profile', { id: 1 }, context);
  });

  it('defers passed-through calls when there is no callback to wrap', async () => {
    const phase = createPlanPhase({ tools, active: true });
    expect(await phase.wrap()('read_profile', {}, context)).toEqual({ behavior: 'defer' });
  });

  it('takes a custom isWriteTool and denial message', async () => {
    const phase = createPlanPhase({
      active: true,
      isWriteTool: ({ toolName, input }) => toolName === 'Bash' && !/^ls\b/.test((input as { command: string }).command),
      denialMessage: (toolName) => `No ${toolName} while planning.`,
    });
    const hook = phase.hooks.PreToolUse[0]!.hook;
    expect(await hook({ ...hookInput('Bash'), toolInput: { command: 'ls -la' } })).toEqual({});
    expect(await hook({ ...hookInput('Bash'), toolInput: { command: 'rm -rf x' } })).toEqual({ decision: 'deny', reason: 'No Bash while planning.' });
    expect(await hook(hookInput('Write'))).toEqual({});
  });
});
