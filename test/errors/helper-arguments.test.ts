import { describe, expect, it } from 'vitest';
import * as core from 'agent-harness';
import * as node from 'agent-harness/node';
import * as testing from 'agent-harness/testing';
import * as messagesServer from 'agent-harness/testing/messages-server';
import * as postgres from 'agent-harness/postgres';
import * as redis from 'agent-harness/redis';
import * as bullmq from 'agent-harness/bullmq';
import * as zod3 from 'agent-harness/zod3';
import { AgentHarnessError, ConfigurationError } from 'agent-harness';

// Every public function, called with a value of the wrong kind, says which argument is wrong and
// what it takes (an AgentHarnessError, mostly a ConfigurationError), never a TypeError from
// somewhere inside ("Cannot read properties of undefined (reading 'kind')").

const entries = { 'agent-harness': core, 'agent-harness/node': node, 'agent-harness/testing': testing, 'agent-harness/testing/messages-server': messagesServer, 'agent-harness/postgres': postgres, 'agent-harness/redis': redis, 'agent-harness/bullmq': bullmq, 'agent-harness/zod3': zod3 };
const WRONG: unknown[] = [undefined, null, 42, 'x', {}, [], true];

/** What calling `fn(value)` did: 'returned', or the thrown (or rejected) error. */
async function outcome(fn: (value: unknown) => unknown, value: unknown): Promise<unknown> {
  try {
    const returned = fn(value);
    if (returned && typeof (returned as PromiseLike<unknown>).then === 'function') await returned;
    return 'returned';
  } catch (error) {
    return error;
  }
}

describe('the public functions and a first argument of the wrong kind', () => {
  for (const [entry, exports] of Object.entries(entries)) {
    const functions = Object.entries(exports).filter(([name, value]) => typeof value === 'function' && /^[a-z]/.test(name)) as Array<[string, (value: unknown) => unknown]>;
    it(`${entry}: each of its ${functions.length} functions answers or throws an AgentHarnessError naming the function`, async () => {
      expect(functions.length).toBeGreaterThan(0);
      const bad: string[] = [];
      for (const [name, fn] of functions) {
        for (const value of WRONG) {
          const result = await outcome(fn, value);
          if (result === 'returned') continue;
          if (!(result instanceof AgentHarnessError)) bad.push(`${name}(${JSON.stringify(value) ?? 'undefined'}): ${String(result)}`);
        }
      }
      expect(bad).toEqual([]);
    });
  }
});

describe('the message names the function, the argument, what it takes and what it got', () => {
  const fails = (call: () => unknown) => {
    try {
      call();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return (error as Error).message;
    }
    throw new Error('expected the call to throw');
  };

  it('first arguments', () => {
    expect(fails(() => core.estimateTextTokens(42 as never))).toBe('estimateTextTokens: `text` must be a string, got 42.');
    expect(fails(() => core.applyEntry(undefined as never, { kind: 'message' } as never))).toBe('applyEntry: `state` must be a session state (createSessionState() or foldEntries()), got undefined.');
    expect(fails(() => core.planToTodos({ steps: [{ title: 3 }] } as never))).toMatch(/^planToTodos: `plan` must be a plan whose steps each have a title/);
    expect(fails(() => node.classifyBashCommand(['ls'] as never))).toBe('classifyBashCommand: `command` must be a shell command (a string), got ["ls"].');
  });

  it('later arguments', () => {
    const state = core.createSessionState({ sessionId: 's' });
    expect(fails(() => core.applyEntry(state, null as never))).toBe('applyEntry: `entry` must be a session entry ({ kind, ... }), got null.');
    expect(fails(() => core.compareSessionIds('a', null as never))).toBe('compareSessionIds: `b` must be a session id (a string), got null.');
    expect(fails(() => core.mcpToolName('notes', 42 as never))).toMatch(/^mcpToolName: `tool` must be a tool name/);
    expect(fails(() => core.mcpToolName('notes', 'search', ['x'] as never))).toMatch(/^mcpToolName: `taken` must be a Set/);
    expect(fails(() => core.diffTodos([], 'x' as never))).toMatch(/^diffTodos: `next` must be an array of todos/);
    expect(fails(() => core.unifiedDiff('a', 42 as never))).toMatch(/^unifiedDiff: `after` must be the text after/);
    const values = new Map<string, unknown>();
    const store = { get: (key: string) => values.get(key), set: (key: string, value: unknown) => void values.set(key, value) } as never;
    expect(fails(() => core.readRuleMatcher(store, 42 as never, undefined))).toMatch(/^readRuleMatcher: `toolUseId`/);
    expect(fails(() => core.recordFileCheckpoint(store, { path: 'a.txt' } as never))).toMatch(/^recordFileCheckpoint: `change` must be a change/);
    expect(fails(() => node.parseSkillFile('---\nname: a\n---', 42 as never))).toMatch(/^parseSkillFile: `source`/);
    expect(fails(() => core.spillToolResult({ type: 'tool_result', tool_use_id: 't', content: 'x' }, {} as never))).toMatch(/^spillToolResult: `options` must be an options object with the toolName/);
    expect(fails(() => core.memoryTool({ store: {} } as never))).toMatch(/^memoryTool: `store` must be a memory store .*it has no stat, readFile, list, writeFile, delete and rename methods/);
    expect(fails(() => core.readToolOutputTool({ store: core.memorySpillStore(), pageChars: 0 }))).toBe('readToolOutputTool: `pageChars` must be a positive integer, got 0.');
    expect(fails(() => core.shouldCompact({ tokens: 10, window: 100 } as never, null as never))).toBe('shouldCompact: `options` must be an options object ({ threshold, outputReserve }) or nothing, got null.');
    expect(fails(() => core.compactionThreshold(200_000, null as never))).toMatch(/^compactionThreshold: `options`/);
  });

  it('decidePermission: each required argument, the mode by the list of modes', async () => {
    const tool = core.defineTool({ name: 'edit', description: 'Edits.', inputSchema: (await import('zod')).z.object({}), kind: 'edit', execute: () => 'ok' });
    const args = { tool, toolUseId: 't', rawInput: {}, mode: 'default', signal: new AbortController().signal, agent: {}, emit: () => undefined };
    await expect(core.decidePermission({ ...args, mode: 'sometimes' } as never)).rejects.toThrow('decidePermission: `args.mode` "sometimes" is not a permission mode; use one of');
    await expect(core.decidePermission({ ...args, toolUseId: 7 } as never)).rejects.toThrow('decidePermission: `args.toolUseId` must be');
    await expect(core.decidePermission({ ...args, agent: undefined } as never)).rejects.toThrow('decidePermission: `args.agent` must be');
    await expect(core.decidePermission({ ...args, emit: 'log' } as never)).rejects.toThrow('decidePermission: `args.emit` must be a function');
    await expect(core.decidePermission({ ...args, signal: { aborted: false } } as never)).rejects.toThrow('decidePermission: `args.signal` must be an AbortSignal');
  });

  it('an async function rejects with the error instead of throwing', async () => {
    await expect(core.requestPlan({} as never)).rejects.toThrow('requestPlan: `agent` must be an agent (createAgent()), got {}.');
    await expect(core.runHooks({ event: 'Stop', hooks: undefined, input: {} } as never)).rejects.toThrow(/^runHooks: `options.signal` must be an AbortSignal, got undefined\.$/);
  });
});
