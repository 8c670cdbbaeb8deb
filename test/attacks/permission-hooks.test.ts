// Attack class: hooks in the permission pipeline. A PermissionRequest hook that fails must not let
// a sibling hook's allow answer for it (fail closed: the host is asked), and an interrupt while
// they run is an interrupt, not an allow. The documented precedence of a PreToolUse hook's
// verdicts (README: a hook's deny decides at step 2, its ask or defer is weighed at step 4 and its
// allow at step 6) is pinned against deny rules, ask rules and every mode.
import { describe, expect, it, vi } from 'vitest';
import { HookError } from '../../src/errors/hook-error.js';
import { decidePermission } from '../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import type { HooksConfig } from '../../src/hooks/types.js';
import type { CanUseTool, PermissionMode } from '../../src/types/permission.js';
import type { Tool } from '../../src/tools/types.js';
import { bashTool, editTool, makeArgs, readTool } from '../permissions/fixtures.js';

const allowAll: CanUseTool = async () => ({ behavior: 'allow' });
const make = { tool: bashTool, rawInput: { command: 'make' } };

describe('attack: a failing PermissionRequest hook and a sibling that allows', () => {
  it.each([
    ['throws', { hook: () => { throw new Error('policy service down'); } }],
    ['times out', { timeoutMs: 1, hook: () => new Promise<never>(() => {}) }],
    ['returns a decision it may not', { hook: () => ({ decision: 'ask' }) as never }],
  ])('when one %s, the allow of another does not answer: the host is asked', async (_name, failing) => {
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'deny', message: 'the user said no' }));
    for (const order of [[failing, { hook: () => ({ decision: 'allow' as const }) }], [{ hook: () => ({ decision: 'allow' as const }) }, failing]]) {
      canUseTool.mockClear();
      const { args, events } = makeArgs({ ...make, canUseTool, hooks: { PermissionRequest: order } as HooksConfig });
      const { decision } = await decidePermission(args);
      expect(decision).toMatchObject({ behavior: 'deny', message: 'the user said no', reason: { type: 'callback' } });
      expect(canUseTool).toHaveBeenCalledTimes(1);
      const errors = events.filter((event) => event.type === 'error');
      expect(errors).toHaveLength(1);
      expect(HookError.isInstance(errors[0]!.type === 'error' && errors[0]!.error)).toBe(true);
    }
  });

  it('without canUseTool the call is parked for the host, not allowed', async () => {
    const hooks: HooksConfig = { PermissionRequest: [{ hook: () => ({ decision: 'allow' }) }, { hook: () => { throw new Error('down'); } }] };
    const { decision } = await decidePermission(makeArgs({ ...make, hooks }).args);
    expect(decision.behavior).toBe('defer');
  });

  it("a failing hook's sibling deny still denies", async () => {
    const hooks: HooksConfig = { PermissionRequest: [{ hook: () => { throw new Error('down'); } }, { hook: () => ({ decision: 'deny', message: 'policy' }) }] };
    const { decision } = await decidePermission(makeArgs({ ...make, canUseTool: allowAll, hooks }).args);
    expect(decision).toMatchObject({ behavior: 'deny', message: 'policy' });
  });

  it('an interrupt while a later hook runs denies as interrupted, whatever an earlier one allowed, with no error event', async () => {
    const controller = new AbortController();
    const canUseTool = vi.fn(allowAll);
    const hooks: HooksConfig = {
      PermissionRequest: [
        { hook: () => ({ decision: 'allow' }) },
        { hook: () => (controller.abort(), new Promise<never>(() => {})) },
      ],
    };
    const { args, events } = makeArgs({ ...make, canUseTool, hooks, signal: controller.signal });
    const { decision } = await decidePermission(args);
    expect(decision).toMatchObject({ behavior: 'deny', interrupt: true });
    expect(canUseTool).not.toHaveBeenCalled();
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
  });
});

describe("a PreToolUse hook's verdicts: where the pipeline weighs them (README, Permission modes and the pipeline)", () => {
  const decide = async (options: { decision: 'allow' | 'ask' | 'defer'; mode?: PermissionMode; rules?: Parameters<typeof createRuleSet>[0]; tool?: Tool; rawInput?: unknown }) => {
    const canUseTool = vi.fn(allowAll);
    const hooks: HooksConfig = { PreToolUse: [{ hook: () => ({ decision: options.decision, reason: 'hook says so' }) }] };
    const { args } = makeArgs({
      tool: options.tool ?? (bashTool as Tool),
      rawInput: options.rawInput ?? { command: 'make' },
      mode: options.mode ?? 'default',
      rules: createRuleSet(options.rules ?? {}),
      canUseTool,
      hooks,
    });
    const { decision } = await decidePermission(args);
    return { decision, asked: canUseTool.mock.calls.length > 0 };
  };

  it('ask and defer lose to a deny rule (step 3 before step 4)', async () => {
    for (const verdict of ['ask', 'defer'] as const) {
      const { decision, asked } = await decide({ decision: verdict, rules: { deny: ['Bash(make:*)'] } });
      expect(decision.reason).toEqual({ type: 'rule', behavior: 'deny', rule: 'Bash(make:*)' });
      expect(asked).toBe(false);
    }
  });

  it('allow loses to an ask rule and to a deny rule (steps 3 and 4 before step 6)', async () => {
    const asked = await decide({ decision: 'allow', rules: { ask: ['Bash(make:*)'] } });
    expect(asked.decision).toMatchObject({ behavior: 'allow', reason: { type: 'callback' } });
    expect(asked.asked).toBe(true);
    const denied = await decide({ decision: 'allow', rules: { deny: ['Bash(make:*)'] } });
    expect(denied.decision).toMatchObject({ behavior: 'deny', reason: { type: 'rule', behavior: 'deny' } });
  });

  it('ask comes before the mode: asked in acceptEdits and bypassPermissions, refused in dontAsk and plan without asking', async () => {
    const edit = { tool: editTool, rawInput: { file_path: 'src/a.ts' } };
    for (const mode of ['acceptEdits', 'bypassPermissions'] as const) {
      const { decision, asked } = await decide({ decision: 'ask', mode, ...edit });
      expect(decision.reason, mode).toEqual({ type: 'callback' });
      expect(asked, mode).toBe(true);
    }
    for (const mode of ['dontAsk', 'plan'] as const) {
      const { decision, asked } = await decide({ decision: 'ask', mode, ...edit });
      expect(decision, mode).toMatchObject({ behavior: 'deny', reason: { type: 'mode', mode } });
      expect(asked, mode).toBe(false);
    }
  });

  it('allow comes after the mode: plan mode still refuses a write, and lets a read through', async () => {
    const write = await decide({ decision: 'allow', mode: 'plan', tool: editTool, rawInput: { file_path: 'src/a.ts' } });
    expect(write.decision).toMatchObject({ behavior: 'deny', reason: { type: 'mode', mode: 'plan' } });
    const read = await decide({ decision: 'allow', mode: 'plan', tool: readTool, rawInput: { file_path: 'src/a.ts' } });
    expect(read.decision).toMatchObject({ behavior: 'allow', reason: { type: 'hook', hookEvent: 'PreToolUse' } });
  });

  it('allow answers what dontAsk would refuse (the host allowed it), and what default mode would ask', async () => {
    for (const mode of ['dontAsk', 'default'] as const) {
      const { decision, asked } = await decide({ decision: 'allow', mode });
      expect(decision, mode).toMatchObject({ behavior: 'allow', reason: { type: 'hook', hookEvent: 'PreToolUse', message: 'hook says so' } });
      expect(asked).toBe(false);
    }
  });
});
