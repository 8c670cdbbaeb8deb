import { afterEach, describe, expect, it, vi } from 'vitest';
import { HookError } from '../../src/errors/hook-error.js';
import { runHooks } from '../../src/hooks/run-hooks.js';
import type { HooksConfig, PreToolUseHookInput } from '../../src/hooks/types.js';

const toolInput = (toolName = 'Write') => ({ sessionId: 's', toolName, toolInput: { x: 0 }, toolUseId: 't', permissionMode: 'default' as const });

afterEach(() => {
  vi.useRealTimers();
});

describe('runHooks', () => {
  it('runs matching hooks in order with the full input', async () => {
    const calls: string[] = [];
    const seen: PreToolUseHookInput[] = [];
    const hooks: HooksConfig = {
      PreToolUse: [
        { matcher: 'Write|Edit', hook: (input) => void (calls.push('a'), seen.push(input)) },
        { matcher: 'Edit', hook: () => void calls.push('b') },
        { matcher: 'Wri', hook: () => void calls.push('partial') },
        { hook: async () => (calls.push('c'), { decision: 'allow' as const }) },
        { matcher: '*', hook: () => (calls.push('d'), { reason: 'r' }) },
      ],
    };
    const result = await runHooks({ event: 'PreToolUse', input: toolInput(), hooks, signal: new AbortController().signal });
    expect(calls).toEqual(['a', 'c', 'd']);
    expect(result).toEqual({ outputs: [{}, { decision: 'allow' }, { reason: 'r' }], errors: [], ran: 3 });
    expect(seen[0]).toMatchObject({ hookEventName: 'PreToolUse', sessionId: 's', toolName: 'Write', toolUseId: 't', toolInput: { x: 0 } });
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal);
  });

  it('hands each hook the previous rewrite', async () => {
    const seen: unknown[] = [];
    const hooks: HooksConfig = {
      PreToolUse: [
        { hook: ({ toolInput }) => (seen.push(toolInput), { updatedInput: { x: 1 } }) },
        { hook: ({ toolInput }) => void seen.push(toolInput) },
        { hook: ({ toolInput }) => (seen.push(toolInput), { updatedInput: { x: 2 } }) },
      ],
    };
    const result = await runHooks({ event: 'PreToolUse', input: toolInput(), hooks, signal: new AbortController().signal });
    expect(seen).toEqual([{ x: 0 }, { x: 1 }, { x: 1 }]);
    expect(result.outputs.at(-1)).toEqual({ updatedInput: { x: 2 } });
  });

  it('collects errors separately: throwing, rejecting, bad outputs', async () => {
    const hooks: HooksConfig = {
      PreToolUse: [
        { hook: () => { throw new Error('boom'); } },
        { hook: async () => Promise.reject('nope') },
        { hook: () => 'yes' as never },
        { hook: () => ({ decision: 'maybe' }) as never },
        { hook: () => ({ decision: 'ask' as const }) },
      ],
    };
    const { outputs, errors } = await runHooks({ event: 'PreToolUse', input: toolInput(), hooks, signal: new AbortController().signal });
    expect(outputs).toEqual([{ decision: 'ask' }]);
    expect(errors.map((error) => error.hookIndex)).toEqual([0, 1, 2, 3]);
    expect(errors.every((error) => HookError.isInstance(error) && error.hookEventName === 'PreToolUse')).toBe(true);
    expect(errors[0]!.message).toBe('PreToolUse hook #0 threw: boom.');
    expect(errors[0]!.cause).toBeInstanceOf(Error);
    expect(errors[2]!.message).toMatch(/returned string; a hook returns an object/);
    expect(errors[3]!.message).toMatch(/decision "maybe"/);
  });

  it('times out a hook that never resolves, aborting its signal', async () => {
    let hookSignal: AbortSignal | undefined;
    const hooks: HooksConfig = {
      PreToolUse: [{ timeoutMs: 5, hook: ({ signal }) => ((hookSignal = signal), new Promise<never>(() => {})) }, { hook: () => ({ decision: 'allow' as const }) }],
    };
    const { outputs, errors } = await runHooks({ event: 'PreToolUse', input: toolInput(), hooks, signal: new AbortController().signal });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ timedOut: true, hookIndex: 0, message: 'PreToolUse hook #0 timed out after 5 ms.' });
    expect(hookSignal?.aborted).toBe(true);
    expect(outputs).toEqual([{ decision: 'allow' }]);
  });

  it('uses the default timeout and clears its timers', async () => {
    vi.useFakeTimers();
    const pending = runHooks({
      event: 'Stop',
      input: { sessionId: 's', stopHookActive: false, stopReason: 'end_turn' },
      hooks: { Stop: [{ hook: () => new Promise<never>(() => {}) }, { hook: () => ({ continue: true }) }] },
      signal: new AbortController().signal,
      defaultTimeoutMs: 1000,
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(result.errors[0]!.timedOut).toBe(true);
    expect(result.outputs).toEqual([{ continue: true }]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops waiting when the run is interrupted', async () => {
    const controller = new AbortController();
    let hookSignal: AbortSignal | undefined;
    const pending = runHooks({
      event: 'PreToolUse',
      input: toolInput(),
      hooks: { PreToolUse: [{ hook: ({ signal }) => ((hookSignal = signal), new Promise<never>(() => {})) }] },
      signal: controller.signal,
    });
    await Promise.resolve();
    controller.abort(new Error('stop'));
    const { errors } = await pending;
    expect(errors[0]).toMatchObject({ timedOut: false, message: 'PreToolUse hook #0 was aborted because the run was interrupted.' });
    expect(hookSignal?.aborted).toBe(true);
  });

  it('does nothing without hooks', async () => {
    const result = await runHooks({ event: 'SessionStart', input: { sessionId: 's', source: 'startup' }, hooks: undefined, signal: new AbortController().signal });
    expect(result).toEqual({ outputs: [], errors: [], ran: 0 });
  });

  it('ignores matchers on events without a tool name', async () => {
    const hook = vi.fn(() => ({ additionalContext: 'ctx' }));
    const result = await runHooks({ event: 'UserPromptSubmit', input: { sessionId: 's', prompt: 'hi' }, hooks: { UserPromptSubmit: [{ hook }] }, signal: new AbortController().signal });
    expect(hook).toHaveBeenCalledWith(expect.objectContaining({ hookEventName: 'UserPromptSubmit', prompt: 'hi' }));
    expect(result.outputs).toEqual([{ additionalContext: 'ctx' }]);
  });
});
