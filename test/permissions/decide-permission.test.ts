import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { HookError } from '../../src/errors/hook-error.js';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { decidePermission, decidePermissionNow } from '../../src/permissions/decide-permission.js';
import { DEFAULT_PLAN_MODE_DENY_MESSAGE } from '../../src/permissions/mode-reminder.js';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import type { CanUseTool, ToolPermissionCheck } from '../../src/types/permission.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { agentContext, bashTool, editTool, makeArgs, readTool } from './fixtures.js';

const allowAll: CanUseTool = async () => ({ behavior: 'allow' });

describe('step 1: validation', () => {
  it('denies a schema failure naming the field, without asking', async () => {
    const canUseTool = vi.fn(allowAll);
    const { args } = makeArgs({ tool: editTool, rawInput: { file_path: 3 }, canUseTool, mode: 'bypassPermissions' });
    const { decision, input } = await decidePermission(args);
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toEqual({ type: 'validation', message: decision.message });
    expect(decision.message).toMatch(/^Invalid input for tool "Edit": file_path: /);
    expect(input).toBeUndefined();
    expect(canUseTool).not.toHaveBeenCalled();
  });

  it("denies the tool's own validateInput problem, and a validateInput that throws", async () => {
    const tool = defineTool({
      name: 'Write',
      description: 'w',
      inputSchema: z.object({ path: z.string() }),
      validateInput: ({ input }) => {
        if (input.path === 'boom') throw new Error('disk on fire');
        return input.path.endsWith('/') ? 'path must name a file, not a directory' : undefined;
      },
      execute: () => '',
    });
    const first = await decidePermission(makeArgs({ tool, rawInput: { path: 'a/' } }).args);
    expect(first.decision).toMatchObject({ behavior: 'deny', message: 'Invalid input for tool "Write": path must name a file, not a directory' });
    const second = await decidePermission(makeArgs({ tool, rawInput: { path: 'boom' } }).args);
    expect(second.decision.message).toMatch(/disk on fire/);
    expect(second.decision.reason.type).toBe('validation');
  });
});

describe('step 2: PreToolUse hooks', () => {
  it('a deny decides, with the reason as the message', async () => {
    const { args } = makeArgs({ tool: readTool, rawInput: { file_path: 'a' }, hooks: { PreToolUse: [{ hook: () => ({ decision: 'deny', reason: 'not today' }) }] } });
    const { decision } = await decidePermission(args);
    expect(decision).toMatchObject({ behavior: 'deny', message: 'not today', reason: { type: 'hook', hookEvent: 'PreToolUse', message: 'not today' } });
  });

  it.each([
    ['throws', { hook: () => { throw new Error('hook bug'); } }],
    ['times out', { timeoutMs: 1, hook: () => new Promise<never>(() => {}) }],
    ['returns nonsense', { hook: () => 'yes' as never }],
  ])('fails closed when a hook %s, reporting an error event', async (_name, entry) => {
    const canUseTool = vi.fn(allowAll);
    const { args, events } = makeArgs({
      tool: readTool,
      rawInput: { file_path: 'a' },
      mode: 'bypassPermissions',
      rules: createRuleSet({ allow: ['Read'] }),
      canUseTool,
      hooks: { PreToolUse: [{ hook: () => ({ decision: 'allow' }) }, entry as never] },
    });
    const { decision } = await decidePermission(args);
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toMatchObject({ type: 'hook', hookEvent: 'PreToolUse' });
    expect(canUseTool).not.toHaveBeenCalled();
    const errors = events.filter((event) => event.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ fatal: false });
    expect(HookError.isInstance(errors[0]!.type === 'error' && errors[0]!.error)).toBe(true);
  });

  it('rewrites chain, are validated again, and later steps see the result', async () => {
    const seen: unknown[] = [];
    const hooks = {
      PreToolUse: [
        { hook: () => ({ updatedInput: { command: 'npm test' } }) },
        { hook: ({ toolInput }: { toolInput: unknown }) => (seen.push(toolInput), { updatedInput: { command: 'rm -rf /' } }) },
      ],
    };
    const { args } = makeArgs({ tool: bashTool, rawInput: { command: 'ls' }, hooks, rules: createRuleSet({ deny: ['Bash(rm:*)'] }) });
    const { decision, input } = await decidePermission(args);
    expect(seen).toEqual([{ command: 'npm test' }]);
    expect(decision).toMatchObject({ behavior: 'deny', reason: { type: 'rule', behavior: 'deny', rule: 'Bash(rm:*)' } });
    expect(input).toEqual({ command: 'rm -rf /' });

    const invalid = makeArgs({ tool: bashTool, rawInput: { command: 'ls' }, hooks: { PreToolUse: [{ hook: () => ({ updatedInput: { cmd: 'ls' } }) }] } });
    const rejected = await decidePermission(invalid.args);
    expect(rejected.decision).toMatchObject({ behavior: 'deny', reason: { type: 'validation' } });
    expect(rejected.decision.message).toMatch(/command/);
  });

  it('an allow skips the question but not deny rules or plan mode', async () => {
    const hooks = { PreToolUse: [{ hook: () => ({ decision: 'allow' as const, reason: 'trusted' }) }] };
    const canUseTool = vi.fn(allowAll);
    const allowed = await decidePermission(makeArgs({ tool: bashTool, rawInput: { command: 'make' }, hooks, canUseTool }).args);
    expect(allowed.decision).toMatchObject({ behavior: 'allow', reason: { type: 'hook', hookEvent: 'PreToolUse', message: 'trusted' } });
    const denied = await decidePermission(makeArgs({ tool: bashTool, rawInput: { command: 'make' }, hooks, rules: createRuleSet({ deny: ['Bash(make:*)'] }) }).args);
    expect(denied.decision.reason).toMatchObject({ type: 'rule', behavior: 'deny' });
    const planned = await decidePermission(makeArgs({ tool: bashTool, rawInput: { command: 'make' }, hooks, mode: 'plan' }).args);
    expect(planned.decision.reason).toMatchObject({ type: 'mode', mode: 'plan' });
    expect(canUseTool).not.toHaveBeenCalled();
  });

  it('an ask reaches canUseTool even in bypassPermissions; a defer parks without asking', async () => {
    const canUseTool = vi.fn(allowAll);
    const asked = await decidePermission(
      makeArgs({ tool: readTool, rawInput: { file_path: 'a' }, mode: 'bypassPermissions', canUseTool, hooks: { PreToolUse: [{ matcher: 'Read', hook: () => ({ decision: 'ask', reason: 'check' }) }] } }).args,
    );
    expect(asked.decision).toMatchObject({ behavior: 'allow', reason: { type: 'callback' } });
    expect(canUseTool).toHaveBeenCalledWith('Read', { file_path: 'a' }, expect.objectContaining({ reason: { type: 'hook', hookEvent: 'PreToolUse', message: 'check' } }));
    canUseTool.mockClear();
    const deferred = await decidePermission(
      makeArgs({ tool: readTool, rawInput: { file_path: 'a' }, canUseTool, hooks: { PreToolUse: [{ hook: () => ({ decision: 'defer' }) }] } }).args,
    );
    expect(deferred.decision).toMatchObject({ behavior: 'defer', reason: { type: 'hook', hookEvent: 'PreToolUse' } });
    expect(deferred.suggestions).toEqual([{ type: 'addRules', behavior: 'allow', rules: ['Read(**)'], destination: 'session', description: 'Allow reading any file in this project' }]);
    expect(canUseTool).not.toHaveBeenCalled();
  });

  it('hands hooks the session, agent, mode and validated input', async () => {
    const hook = vi.fn(() => ({}));
    const { args } = makeArgs({ tool: readTool, rawInput: { file_path: 'a' }, mode: 'acceptEdits', agent: agentContext('acceptEdits', 'sub-1'), hooks: { PreToolUse: [{ hook }] } });
    await decidePermission(args);
    expect(hook).toHaveBeenCalledWith(
      expect.objectContaining({ hookEventName: 'PreToolUse', sessionId: 'session-1', agentId: 'sub-1', toolName: 'Read', toolUseId: 'toolu_1', toolInput: { file_path: 'a' }, permissionMode: 'acceptEdits' }),
    );
  });
});

describe('modes', () => {
  it('dontAsk never calls canUseTool, whatever would be asked', async () => {
    const canUseTool = vi.fn(allowAll);
    const exitPlan = defineTool({ name: 'ExitPlanMode', description: 'x', inputSchema: z.object({ plan: z.string() }), readOnly: true, checkPermissions: () => ({ behavior: 'ask', askReason: { type: 'plan-approval' } }), execute: () => '' });
    const cases = [
      makeArgs({ tool: bashTool, rawInput: { command: 'make' }, mode: 'dontAsk', canUseTool }),
      makeArgs({ tool: readTool, rawInput: { file_path: 'a' }, mode: 'dontAsk', canUseTool, rules: createRuleSet({ ask: ['Read'] }) }),
      makeArgs({ tool: exitPlan, rawInput: { plan: 'p' }, mode: 'dontAsk', canUseTool }),
      makeArgs({ tool: readTool, rawInput: { file_path: 'a' }, mode: 'dontAsk', canUseTool, hooks: { PreToolUse: [{ hook: () => ({ decision: 'defer' }) }] } }),
    ];
    for (const { args, events } of cases) {
      const { decision } = await decidePermission(args);
      expect(decision).toMatchObject({ behavior: 'deny', reason: { type: 'mode', mode: 'dontAsk' } });
      expect(decision.message).toMatch(/dontAsk/);
      expect(events).toEqual([]);
    }
    expect(canUseTool).not.toHaveBeenCalled();
  });

  it('plan mode: custom deny message; ask rules cannot open it; read-only calls go on', async () => {
    const canUseTool = vi.fn(allowAll);
    const custom = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: 'a' }, mode: 'plan', planModeDenyMessage: 'Outline only.' }).args);
    expect(custom.decision).toMatchObject({ behavior: 'deny', message: 'Outline only.', reason: { type: 'mode', mode: 'plan', message: 'Outline only.' } });
    const asked = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: 'a' }, mode: 'plan', canUseTool, rules: createRuleSet({ ask: ['Edit'] }) }).args);
    expect(asked.decision).toMatchObject({ behavior: 'deny', message: DEFAULT_PLAN_MODE_DENY_MESSAGE });
    const read = await decidePermission(makeArgs({ tool: bashTool, rawInput: { command: 'git status' }, mode: 'plan', canUseTool }).args);
    expect(read.decision).toMatchObject({ behavior: 'allow', reason: { type: 'read-only' } });
    expect(canUseTool).not.toHaveBeenCalled();
  });

  it('plan mode: a host edit that makes the call write is refused', async () => {
    const canUseTool: CanUseTool = async () => ({ behavior: 'allow', updatedInput: { command: 'rm -rf /' } });
    const { args } = makeArgs({ tool: bashTool, rawInput: { command: 'ls' }, mode: 'plan', canUseTool, rules: createRuleSet({ ask: ['Bash(ls:*)'] }) });
    const { decision } = await decidePermission(args);
    expect(decision).toMatchObject({ behavior: 'deny', reason: { type: 'mode', mode: 'plan' } });
  });

  it("acceptEdits: the tool's ask or deny stands, an outside path is not auto-approved, the check runs once", async () => {
    const check = vi.fn((): ToolPermissionCheck => ({ behavior: 'ask', message: 'outside the workspace', blockedPath: '/etc/hosts', suggestions: [] }));
    const tool = { ...editTool, checkPermissions: check };
    const canUseTool = vi.fn(allowAll);
    const { args, events } = makeArgs({ tool, rawInput: { file_path: 'x' }, mode: 'acceptEdits', canUseTool });
    const { decision } = await decidePermission(args);
    expect(decision).toMatchObject({ behavior: 'allow', reason: { type: 'callback' } });
    expect(check).toHaveBeenCalledTimes(1);
    expect(canUseTool).toHaveBeenCalledWith('Edit', { file_path: 'x' }, expect.objectContaining({ reason: { type: 'tool-check', message: 'outside the workspace' }, blockedPath: '/etc/hosts', suggestions: [] }));
    expect(events[0]).toMatchObject({ type: 'permission-request', blockedPath: '/etc/hosts', reason: { type: 'tool-check' } });

    const denied = await decidePermission(makeArgs({ tool: { ...editTool, checkPermissions: () => ({ behavior: 'deny', message: 'read-only file' }) }, rawInput: { file_path: 'x' }, mode: 'acceptEdits' }).args);
    expect(denied.decision).toMatchObject({ behavior: 'deny', message: 'read-only file', reason: { type: 'tool-check', message: 'read-only file' } });

    const outside = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: '/etc/hosts' }, mode: 'acceptEdits', cwd: '/work/p' }).args);
    expect(outside).toMatchObject({ decision: { behavior: 'defer', reason: { type: 'default' } }, blockedPath: '/etc/hosts' });
    const inside = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: '/work/p/a.ts' }, mode: 'acceptEdits', cwd: '/work/p' }).args);
    expect(inside.decision).toMatchObject({ behavior: 'allow', reason: { type: 'mode', mode: 'acceptEdits' } });
  });

  it('bypassPermissions never asks unless an ask rule does', async () => {
    const canUseTool = vi.fn(allowAll);
    const asking = { ...bashTool, checkPermissions: (): ToolPermissionCheck => ({ behavior: 'ask' }) };
    const bypass = await decidePermission(makeArgs({ tool: asking, rawInput: { command: 'make' }, mode: 'bypassPermissions', canUseTool }).args);
    expect(bypass.decision).toMatchObject({ behavior: 'allow', reason: { type: 'mode', mode: 'bypassPermissions' } });
    expect(canUseTool).not.toHaveBeenCalled();
    const ruled = await decidePermission(makeArgs({ tool: bashTool, rawInput: { command: 'make' }, mode: 'bypassPermissions', canUseTool, rules: createRuleSet({ ask: ['Bash(make:*)'] }) }).args);
    expect(ruled.decision).toMatchObject({ behavior: 'allow', reason: { type: 'callback' } });
    expect(canUseTool).toHaveBeenCalledOnce();
  });
});

describe("step 7: the tool's check", () => {
  it('allow, deny, and a check that throws (deny, error event)', async () => {
    const allowed = await decidePermission(makeArgs({ tool: { ...bashTool, checkPermissions: () => ({ behavior: 'allow' }) }, rawInput: { command: 'make' } }).args);
    expect(allowed.decision).toMatchObject({ behavior: 'allow', reason: { type: 'tool-check' } });
    const readDenied = await decidePermission(makeArgs({ tool: { ...readTool, checkPermissions: () => ({ behavior: 'deny', message: 'secret' }) }, rawInput: { file_path: 'a' } }).args);
    expect(readDenied.decision).toMatchObject({ behavior: 'deny', message: 'secret' });
    const broken = makeArgs({ tool: { ...readTool, checkPermissions: () => { throw new Error('bug'); } }, rawInput: { file_path: 'a' } });
    const failed = await decidePermission(broken.args);
    expect(failed.decision).toMatchObject({ behavior: 'deny', reason: { type: 'tool-check' } });
    expect(failed.decision.message).toMatch(/permission check of tool "Read" failed: bug/);
    expect(broken.events).toMatchObject([{ type: 'error', fatal: false }]);
  });

  it('plan approval: ExitPlanMode asks the host with reason plan-approval, in plan mode', async () => {
    const exitPlan = defineTool({
      name: 'ExitPlanMode',
      description: 'Present the plan.',
      inputSchema: z.object({ plan: z.string() }),
      readOnly: true,
      checkPermissions: ({ agent }) => (agent.permissionMode === 'plan' ? { behavior: 'ask', askReason: { type: 'plan-approval' } } : { behavior: 'passthrough' }),
      execute: () => '',
    });
    const canUseTool = vi.fn<CanUseTool>(async () => ({
      behavior: 'allow',
      updatedInput: { plan: 'edited plan' },
      updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    }));
    const { args, events } = makeArgs({ tool: exitPlan, rawInput: { plan: 'plan' }, mode: 'plan', agent: agentContext('plan'), canUseTool });
    const { decision } = await decidePermission(args);
    expect(canUseTool).toHaveBeenCalledWith('ExitPlanMode', { plan: 'plan' }, expect.objectContaining({ reason: { type: 'plan-approval' }, suggestions: [] }));
    expect(events).toMatchObject([{ type: 'permission-request', reason: { type: 'plan-approval' } }]);
    expect(decision).toEqual({
      toolName: 'ExitPlanMode',
      toolUseId: 'toolu_1',
      behavior: 'allow',
      reason: { type: 'callback' },
      input: { plan: 'edited plan' },
      updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    });
    const parked = await decidePermission(makeArgs({ tool: exitPlan, rawInput: { plan: 'plan' }, mode: 'plan', agent: agentContext('plan') }).args);
    expect(parked).toMatchObject({ decision: { behavior: 'defer', reason: { type: 'plan-approval' } }, input: { plan: 'plan' }, suggestions: [] });
  });
});

describe('step 8: auto mode', () => {
  const call = { tool: bashTool, rawInput: { command: 'make' }, mode: 'auto' as const };

  it('the classifier allows or denies instead of the host', async () => {
    const canUseTool = vi.fn(allowAll);
    const allowed = await decidePermission(makeArgs({ ...call, canUseTool, autoMode: { classify: () => ({ behavior: 'allow', message: 'safe' }) } }).args);
    expect(allowed.decision).toMatchObject({ behavior: 'allow', reason: { type: 'classifier', message: 'safe' } });
    const denied = await decidePermission(makeArgs({ ...call, canUseTool, autoMode: { classify: async () => ({ behavior: 'deny' }) } }).args);
    expect(denied.decision).toMatchObject({ behavior: 'deny', reason: { type: 'classifier' } });
    expect(denied.decision.message).toMatch(/classifier/);
    expect(canUseTool).not.toHaveBeenCalled();
  });

  it('undecided, unavailable or failing → the host decides', async () => {
    for (const autoMode of [
      { classify: () => ({ behavior: 'ask' as const }) },
      { classify: vi.fn(() => ({ behavior: 'allow' as const })), isAvailable: () => false },
      { classify: () => { throw new Error('classifier down'); } },
    ]) {
      const canUseTool = vi.fn(allowAll);
      const { args } = makeArgs({ ...call, canUseTool, autoMode });
      const { decision } = await decidePermission(args);
      expect(decision).toMatchObject({ behavior: 'allow', reason: { type: 'callback' } });
      expect(canUseTool).toHaveBeenCalledOnce();
    }
  });

  it('is released by an abort', async () => {
    const controller = new AbortController();
    const classify = vi.fn(() => new Promise<never>(() => {}));
    const { args } = makeArgs({ ...call, signal: controller.signal, autoMode: { classify } });
    const pending = decidePermission(args);
    await vi.waitFor(() => expect(classify).toHaveBeenCalled());
    controller.abort();
    expect((await pending).decision).toMatchObject({ behavior: 'deny', interrupt: true });
  });
});

describe('step 8: PermissionRequest hooks', () => {
  const call = { tool: bashTool, rawInput: { command: 'make' } };

  it('answer instead of the host, without a permission-request event', async () => {
    const canUseTool = vi.fn(allowAll);
    const hook = vi.fn(() => ({ decision: 'allow' as const, updatedInput: { command: 'make -n' } }));
    const { args, events } = makeArgs({ ...call, canUseTool, hooks: { PermissionRequest: [{ matcher: 'Bash', hook }] } });
    const { decision } = await decidePermission(args);
    expect(decision).toMatchObject({ behavior: 'allow', reason: { type: 'hook', hookEvent: 'PermissionRequest' }, input: { command: 'make -n' } });
    expect(hook).toHaveBeenCalledWith(expect.objectContaining({ hookEventName: 'PermissionRequest', reason: { type: 'default' }, suggestions: expect.any(Array), permissionMode: 'default' }));
    expect(canUseTool).not.toHaveBeenCalled();
    expect(events).toEqual([]);

    const denied = await decidePermission(makeArgs({ ...call, canUseTool, hooks: { PermissionRequest: [{ hook: () => ({ decision: 'deny', message: 'policy' }) }] } }).args);
    expect(denied.decision).toMatchObject({ behavior: 'deny', message: 'policy', reason: { type: 'hook', hookEvent: 'PermissionRequest' } });
    const invalid = await decidePermission(makeArgs({ ...call, hooks: { PermissionRequest: [{ hook: () => ({ decision: 'allow', updatedInput: {} }) }] } }).args);
    expect(invalid.decision).toMatchObject({ behavior: 'deny', reason: { type: 'validation' } });
  });

  it('a failing one is reported and ignored', async () => {
    const canUseTool = vi.fn(allowAll);
    const { args, events } = makeArgs({ ...call, canUseTool, hooks: { PermissionRequest: [{ hook: () => { throw new Error('oops'); } }] } });
    const { decision } = await decidePermission(args);
    expect(decision.reason).toEqual({ type: 'callback' });
    expect(events.map((event) => event.type)).toEqual(['error', 'permission-request']);
  });
});

describe('step 8: canUseTool', () => {
  it('gets everything a card needs, and so does the permission-request event', async () => {
    const canUseTool = vi.fn(allowAll);
    const { args, events } = makeArgs({ tool: bashTool, rawInput: { command: 'git diff HEAD' }, canUseTool, agentId: 'sub-7', toolUseId: 'toolu_9' });
    await decidePermission(args);
    const suggestions = [{ type: 'addRules', behavior: 'allow', rules: ['Bash(git diff:*)'], destination: 'session', description: 'Allow running commands that start with `git diff`' }];
    expect(canUseTool).toHaveBeenCalledWith('Bash', { command: 'git diff HEAD' }, { signal: args.signal, toolUseId: 'toolu_9', agentId: 'sub-7', reason: { type: 'default' }, suggestions });
    expect(events).toEqual([
      { type: 'permission-request', toolUseId: 'toolu_9', toolName: 'Bash', input: { command: 'git diff HEAD' }, reason: { type: 'default' }, suggestions, agentId: 'sub-7' },
    ]);
  });

  it('throwing denies, reports the thrown error, and the pipeline returns normally', async () => {
    const thrown = new Error('UI crashed');
    const { args, events } = makeArgs({ tool: bashTool, rawInput: { command: 'make' }, canUseTool: () => { throw thrown; } });
    const { decision } = await decidePermission(args);
    expect(decision).toMatchObject({ behavior: 'deny', reason: { type: 'callback', message: 'canUseTool threw: UI crashed' } });
    expect(decision.interrupt).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'error', error: thrown, fatal: false });
  });

  it('an invalid answer denies with a ConfigurationError event', async () => {
    const { args, events } = makeArgs({ tool: bashTool, rawInput: { command: 'make' }, canUseTool: async () => ({ behavior: 'yes' }) as never });
    const { decision } = await decidePermission(args);
    expect(decision.behavior).toBe('deny');
    const error = events.at(-1);
    expect(error?.type === 'error' && ConfigurationError.isInstance(error.error)).toBe(true);
  });

  it('abort releases a canUseTool that never returns', async () => {
    const controller = new AbortController();
    let received: AbortSignal | undefined;
    const { args } = makeArgs({
      tool: bashTool,
      rawInput: { command: 'make' },
      signal: controller.signal,
      canUseTool: (_name, _input, context) => ((received = context.signal), new Promise(() => {})),
    });
    const pending = decidePermission(args);
    await vi.waitFor(() => expect(received).toBeDefined());
    controller.abort();
    const { decision } = await pending;
    expect(decision).toMatchObject({ behavior: 'deny', interrupt: true, reason: { type: 'callback' } });
    expect(decision.message).toMatch(/interrupted/);
  });

  it('an already aborted signal denies without calling', async () => {
    const controller = new AbortController();
    controller.abort();
    const canUseTool = vi.fn(allowAll);
    const { decision } = await decidePermission(makeArgs({ tool: bashTool, rawInput: { command: 'make' }, signal: controller.signal, canUseTool }).args);
    expect(decision).toMatchObject({ behavior: 'deny', interrupt: true });
    expect(canUseTool).not.toHaveBeenCalled();
  });

  it('deny with interrupt, and defer with suggestions', async () => {
    const interrupted = await decidePermission(makeArgs({ tool: bashTool, rawInput: { command: 'make' }, canUseTool: () => ({ behavior: 'deny', message: 'stop', interrupt: true }) }).args);
    expect(interrupted.decision).toMatchObject({ behavior: 'deny', message: 'stop', interrupt: true, reason: { type: 'callback', message: 'stop' } });
    const deferred = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: 'src/a.ts' }, cwd: '/work/p', canUseTool: () => ({ behavior: 'defer' }) }).args);
    expect(deferred).toEqual({
      decision: { toolName: 'Edit', toolUseId: 'toolu_1', behavior: 'defer', reason: { type: 'default' } },
      input: { file_path: 'src/a.ts' },
      suggestions: [
        { type: 'addRules', behavior: 'allow', rules: ['Edit(src/**)'], destination: 'session', description: 'Allow editing any file in src/' },
        { type: 'setMode', mode: 'acceptEdits', destination: 'session', description: 'Allow file edits in this project without asking, for the rest of this session' },
      ],
    });
  });

  it('an edited input still meets the deny rules', async () => {
    const { decision } = await decidePermission(
      makeArgs({ tool: bashTool, rawInput: { command: 'make' }, rules: createRuleSet({ deny: ['Bash(rm:*)'] }), canUseTool: () => ({ behavior: 'allow', updatedInput: { command: 'rm -rf /' } }) }).args,
    );
    expect(decision).toMatchObject({ behavior: 'deny', reason: { type: 'rule', behavior: 'deny', rule: 'Bash(rm:*)' } });
  });

  it('an edited input is validated again', async () => {
    const bad = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: 'a' }, canUseTool: () => ({ behavior: 'allow', updatedInput: { file_path: ['x'] } }) }).args);
    expect(bad.decision).toMatchObject({ behavior: 'deny', reason: { type: 'validation' } });
    expect(bad.decision.message).toMatch(/^The edited input was rejected\. Invalid input for tool "Edit": file_path: /);
    const good = await decidePermission(makeArgs({ tool: editTool, rawInput: { file_path: 'a' }, canUseTool: () => ({ behavior: 'allow', updatedInput: { file_path: 'b', text: 't' } }) }).args);
    expect(good).toMatchObject({ decision: { behavior: 'allow', input: { file_path: 'b', text: 't' } }, input: { file_path: 'b', text: 't' } });
  });
});

describe("a tool's per-call read-only answer", () => {
  /** A Bash-like tool whose `isReadOnlyCall` reads `answers` (what the workspace is now) and counts the calls. */
  function countingTool(answers: { readOnly: boolean }) {
    const isReadOnlyCall = vi.fn((_input: unknown) => answers.readOnly);
    const tool = defineTool({ name: 'Bash', description: 'Runs a command.', inputSchema: z.object({ command: z.string() }), kind: 'execute', isReadOnlyCall, execute: () => '' });
    return { tool, isReadOnlyCall };
  }

  it('is asked once per decision in plan mode (mode step, tool-check step and the final check share it)', async () => {
    const { tool, isReadOnlyCall } = countingTool({ readOnly: true });
    const { decision } = await decidePermission(makeArgs({ tool, rawInput: { command: 'ls' }, mode: 'plan' }).args);
    expect(decision).toMatchObject({ behavior: 'allow', reason: { type: 'read-only' } });
    expect(isReadOnlyCall).toHaveBeenCalledTimes(1);
    // A second decision of the same call asks again: nothing is kept between decisions.
    await decidePermission(makeArgs({ tool, rawInput: { command: 'ls' }, mode: 'plan' }).args);
    expect(isReadOnlyCall).toHaveBeenCalledTimes(2);
  });

  it('is asked afresh after a host answer: a call that stopped being read-only while the host looked is refused in plan mode', async () => {
    const answers = { readOnly: true };
    const { tool, isReadOnlyCall } = countingTool(answers);
    const canUseTool: CanUseTool = async () => {
      // The workspace changes while the card is open (a program of the same name appears on PATH).
      answers.readOnly = false;
      return { behavior: 'allow' };
    };
    const { decision } = await decidePermission(makeArgs({ tool, rawInput: { command: 'ls' }, mode: 'plan', rules: createRuleSet({ ask: ['Bash'] }), canUseTool }).args);
    expect(decision).toMatchObject({ behavior: 'deny', reason: { type: 'mode', mode: 'plan' } });
    // Once before the question (plan mode asks only read-only calls), once with the answer.
    expect(isReadOnlyCall).toHaveBeenCalledTimes(2);
  });

  it('is asked afresh for an input a hook rewrote', async () => {
    const { tool, isReadOnlyCall } = countingTool({ readOnly: true });
    const hooks = { PreToolUse: [{ hook: () => ({ updatedInput: { command: 'cat a' } }) }] };
    await decidePermission(makeArgs({ tool, rawInput: { command: 'ls' }, mode: 'plan', hooks }).args);
    // The hooks are told about the model's input; the steps after them decide the rewritten one, asking once.
    expect(isReadOnlyCall.mock.calls.map(([input]) => input)).toEqual([{ command: 'ls' }, { command: 'cat a' }]);
  });
});

describe('a decision that awaits nothing is made without a promise', () => {
  const checked = (answer: 'sync' | 'async', behavior: 'ask' | 'allow' | 'deny') =>
    defineTool({
      name: 'Publish',
      description: 'p',
      inputSchema: z.object({ n: z.number() }),
      kind: 'edit',
      validateInput: ({ input }) => (answer === 'sync' ? (input.n < 0 ? 'n must not be negative' : undefined) : Promise.resolve(input.n < 0 ? 'n must not be negative' : undefined)),
      checkPermissions: () => {
        const check: ToolPermissionCheck = behavior === 'deny' ? { behavior, message: 'never on Sundays' } : { behavior };
        return answer === 'sync' ? check : Promise.resolve(check);
      },
      execute: () => '',
    });

  it.each(['ask', 'allow', 'deny'] as const)('a tool whose validateInput and checkPermissions answer at once (%s): the outcome itself; as promises: a promise of the same', async (behavior) => {
    for (const mode of ['default', 'acceptEdits'] as const) {
      const now = decidePermissionNow(makeArgs({ tool: checked('sync', behavior), rawInput: { n: 1 }, mode }).args);
      expect(now, mode).not.toBeInstanceOf(Promise);
      const later = decidePermissionNow(makeArgs({ tool: checked('async', behavior), rawInput: { n: 1 }, mode }).args);
      expect(later, mode).toBeInstanceOf(Promise);
      const [sync, async] = [now as Awaited<typeof later>, await later];
      expect(sync.decision.behavior, mode).toBe(async.decision.behavior);
      expect(sync.decision.reason, mode).toEqual(async.decision.reason);
    }
    // With an allow rule, the tool's check is read by step 6: still without a promise.
    const ruled = decidePermissionNow(makeArgs({ tool: checked('sync', behavior), rawInput: { n: 1 }, rules: createRuleSet({ allow: ['Publish'] }) }).args);
    expect(ruled).not.toBeInstanceOf(Promise);
  });

  it('a synchronous validateInput still refuses, and a check that throws at once still fails closed, reporting an error', () => {
    const refused = decidePermissionNow(makeArgs({ tool: checked('sync', 'allow'), rawInput: { n: -1 } }).args);
    expect(refused).toMatchObject({ decision: { behavior: 'deny', reason: { type: 'validation' }, message: 'Invalid input for tool "Publish": n must not be negative' } });
    const broken = defineTool({
      name: 'Broken',
      description: 'b',
      inputSchema: z.object({}),
      checkPermissions: () => {
        throw new Error('check bug');
      },
      execute: () => '',
    });
    const { args, events } = makeArgs({ tool: broken, rawInput: {}, canUseTool: allowAll });
    const outcome = decidePermissionNow(args);
    expect(outcome).toMatchObject({ decision: { behavior: 'deny', reason: { type: 'tool-check' } } });
    expect(events.some((event) => event.type === 'error' && /check bug/.test(String((event as { error?: Error }).error?.message)))).toBe(true);
  });
});
