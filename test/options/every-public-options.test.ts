/**
 * Every options object of the public API is strict: an unknown key throws a ConfigurationError
 * naming it and the call, a typo gets the nearest valid name. One row per call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  allocatePlanSlug,
  anthropicModel,
  buildPlanRequestPrompt,
  ConfigurationError,
  copyPlanForFork,
  copyPlanForResume,
  createAgent,
  createPartialJsonParser,
  createPlanPhase,
  defineTool,
  extractJson,
  forkSession,
  formatPlanAsMarkdown,
  memoryPlanStore,
  memorySessionStore,
  modeReminder,
  planFileName,
  planToTodos,
  readClaudeCodeSession,
  recoverPlan,
  recoverTodos,
  requestPlan,
  suggestPermissionUpdates,
  unifiedDiff,
  describePermissionUpdate,
} from 'agent-harness';
import { filePlanStore, fileSessionStore, readClaudeCodeSessionFile, workspaceTools } from 'agent-harness/node';
import { scriptedModel, turn, validateMessagesRequestBody } from 'agent-harness/testing';
import { startMessagesServer } from 'agent-harness/testing/messages-server';
import { echoTool } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-harness-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model = () => scriptedModel(['ok']);
const agent = () => createAgent({ model: model() });
const plan = { goal: 'g', outline: [], steps: [{ title: 'a' }], risks: [] };
type Extra = Record<string, unknown>;

/** [the call as named in the message, a call with `extra` merged into its options]. */
const calls: Array<[string, (extra: Extra) => unknown]> = [
  ['createAgent', (extra) => createAgent({ model: model(), ...extra })],
  ['defineTool (tool "t")', (extra) => defineTool({ name: 't', description: '', inputSchema: z.object({}), execute: () => '', ...extra })],
  ['anthropicModel', (extra) => anthropicModel({ model: 'claude-sonnet-4-6', ...extra })],
  ['fileSessionStore', (extra) => fileSessionStore({ dir, ...extra })],
  ['filePlanStore', (extra) => filePlanStore({ dir, ...extra })],
  ['workspaceTools', (extra) => workspaceTools({ cwd: dir, ...extra })],
  ['createPlanPhase', (extra) => createPlanPhase(extra)],
  ['requestPlan', (extra) => requestPlan(agent(), extra)],
  ['scriptedModel', (extra) => scriptedModel([], extra)],
  ['turn', (extra) => turn('text', extra)],
  ['startMessagesServer', (extra) => startMessagesServer(extra)],
  ['validateMessagesRequestBody', (extra) => validateMessagesRequestBody({}, extra)],
  ['forkSession', (extra) => forkSession(memorySessionStore(), 'session_x', extra)],
  ['agent.run', (extra) => agent().run('hi', extra)],
  ['agent.resolveApproval', (extra) => agent().resolveApproval('approval_x', { behavior: 'allow' }, extra)],
  ['agent.fork', (extra) => agent().fork(extra)],
  ['agent.close', (extra) => agent().close(extra)],
  ['memoryPlanStore', (extra) => memoryPlanStore(extra)],
  ['recoverPlan', (extra) => recoverPlan({ entries: [], ...extra })],
  ['copyPlanForResume', (extra) => copyPlanForResume({ store: memoryPlanStore(), slug: 'a-b-c', entries: [], ...extra })],
  ['copyPlanForFork', (extra) => copyPlanForFork({ store: memoryPlanStore(), slug: 'a-b-c', entries: [], ...extra })],
  ['allocatePlanSlug', (extra) => allocatePlanSlug({ store: memoryPlanStore(), ...extra })],
  ['planFileName', (extra) => planFileName({ slug: 'a-b-c', ...extra })],
  ['extractJson', (extra) => extractJson('{}', extra)],
  ['createPartialJsonParser', (extra) => createPartialJsonParser(extra)],
  ['formatPlanAsMarkdown', (extra) => formatPlanAsMarkdown(plan, extra)],
  ['buildPlanRequestPrompt', (extra) => buildPlanRequestPrompt(extra)],
  ['planToTodos', (extra) => planToTodos(plan, extra)],
  ['recoverTodos', (extra) => recoverTodos({ entries: [], ...extra })],
  ['readClaudeCodeSession', (extra) => readClaudeCodeSession('', extra)],
  ['readClaudeCodeSessionFile', (extra) => readClaudeCodeSessionFile(join(dir, 'x.jsonl'), extra)],
  ['suggestPermissionUpdates', (extra) => suggestPermissionUpdates(echoTool, {}, extra)],
  ['modeReminder', (extra) => modeReminder('default', extra)],
  ['unifiedDiff', (extra) => unifiedDiff('a', 'b', extra)],
  ['describePermissionUpdate', (extra) => describePermissionUpdate({ type: 'setMode', mode: 'plan', destination: 'session' }, extra)],
];

async function failure(call: (extra: Extra) => unknown, extra: Extra): Promise<unknown> {
  try {
    const result = call(extra);
    if (result instanceof Promise) await result;
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('every options object of the public API', () => {
  it.each(calls)('%s: an unknown key is a ConfigurationError naming it', async (owner, call) => {
    const error = await failure(call, { bogusOption: 1 });
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`\`bogusOption\` is not an option of ${owner}`);
  });

  it.each(calls)('%s: the valid call passes the check', async (_owner, call) => {
    const error = await failure(call, {});
    // Some valid calls fail later for reasons of their own (no such session or approval): never for an option.
    if (error !== undefined) expect(String((error as Error).message)).not.toMatch(/is not an option|must be|is required/);
  });
});

describe('createAgent: the Claude Agent SDK names', () => {
  const message = (extra: Extra) => {
    try {
      createAgent({ model: model(), ...extra });
    } catch (error) {
      return (error as Error).message;
    }
    return '';
  };

  it('systemPrompt: did you mean `system`?', () => {
    expect(message({ systemPrompt: 'You are terse.' })).toMatch(/^`systemPrompt` is not an option of createAgent; did you mean `system`\?/);
  });

  it('allowedTools and disallowedTools point at the rules', () => {
    expect(message({ allowedTools: ['Read'] })).toContain('rules: { allow: [');
    expect(message({ disallowedTools: ['Bash'] })).toContain('rules: { deny: [');
  });

  it('permissionPromptToolName, maxThinkingTokens, abortController and friends say what to use', () => {
    expect(message({ permissionPromptToolName: 'approve' })).toContain('canUseTool');
    expect(message({ maxThinkingTokens: 4096 })).toContain("anthropicModel({ model, thinking: { type: 'enabled', budget_tokens: 4096 } })");
    expect(message({ abortController: new AbortController() })).toContain('agent.run(prompt, { signal })');
    expect(message({ additionalDirectories: ['/srv'] })).toContain('workspaceTools({ cwd, additionalDirectories');
    expect(message({ pathToClaudeCodeExecutable: '/bin/claude' })).toContain('no CLI');
  });

  it('a model id where a Model belongs says how to wrap it', () => {
    expect(message({ model: 'claude-sonnet-4-6' })).toContain('model: anthropicModel({ model: "claude-sonnet-4-6" })');
  });

  it('values are type-checked, nested rules too', () => {
    expect(message({ maxTurns: '10' })).toBe('createAgent: `maxTurns` must be a positive integer, got the string "10".');
    expect(message({ permissionMode: 'acceptEdit' })).toContain('Did you mean "acceptEdits"?');
    expect(message({ rules: { allowed: ['Read'] } })).toContain('`rules.allowed` is not an option of createAgent; did you mean `rules.allow`?');
    expect(message({ rules: { allow: 'Read' } })).toBe('createAgent: `rules.allow` must be an array of strings, got the string "Read".');
    expect(message({ system: ['a'] })).toBe('createAgent: `system` must be a string, got ["a"].');
    expect(message({ canUseTool: true })).toBe('createAgent: `canUseTool` must be a function, got true.');
    expect(message({ todoWrite: 'no' })).toBe('createAgent: `todoWrite` must be true or false, got the string "no".');
    expect(message({ prices: { 'my-model': { input: 1 } } })).toBe('createAgent: `prices.my-model.output` is required, as in { input: 3, output: 15 }.');
    expect(message({ autoMode: { classify: 1 } })).toBe('createAgent: `autoMode.classify` must be a function, got 1.');
    expect(message({ tools: [echoTool, {}] })).toContain('`tools[1]` must be a tool made with defineTool');
  });
});

describe('defineTool: every option is checked (issue 10)', () => {
  const define = (extra: Extra) => () => defineTool({ name: 'notes', description: 'd', inputSchema: z.object({}), execute: () => '', ...extra });

  it.each([
    [{ readOnly: 'false' }, 'defineTool (tool "notes"): `readOnly` must be true or false, got the string "false".'],
    [{ concurrencySafe: 1 }, 'defineTool (tool "notes"): `concurrencySafe` must be true or false, got 1.'],
    [{ kind: 'write' }, 'defineTool (tool "notes"): `kind` must be one of "read", "edit", "execute", "other", got the string "write".'],
    [{ kind: 'Read' }, 'Did you mean "read"?'],
    [{ timeoutMs: -1 }, '`timeoutMs` must be a positive number of milliseconds, at most 2147483647 (about 24.8 days: a timer fires at once past it), got -1.'],
    [{ timeoutMs: Number.NaN }, '`timeoutMs` must be a positive number of milliseconds, at most 2147483647 (about 24.8 days: a timer fires at once past it), got NaN.'],
    [{ timeoutMs: 2 ** 31 }, '`timeoutMs` must be a positive number of milliseconds, at most 2147483647 (about 24.8 days: a timer fires at once past it), got 2147483648.'],
    [{ execute: 'run' }, '`execute` must be a function'],
    [{ validateInput: {} }, '`validateInput` must be a function'],
    [{ display: 'Edit' }, '`display` must be a function'],
    [{ ruleTarget: { field: 'path', kind: 'file' } }, '`ruleTarget.kind` must be one of "path", "command"'],
    [{ ruleTarget: { field: 'path' } }, '`ruleTarget.kind` is required'],
    [{ inputSchema: 'z.object({})' }, '`inputSchema` must be a zod object schema or a JSON Schema object'],
    [{ parameters: z.object({}) }, '`parameters` is not an option of defineTool (tool "notes"); the input schema is `inputSchema`'],
    [{ input_schema: {} }, 'did you mean `inputSchema`?'],
    [{ handler: () => '' }, '`execute: ({ input, signal }) => …`'],
    [{ readonly: true }, 'did you mean `readOnly`?'],
  ])('%o', (extra, expected) => {
    expect(define(extra)).toThrow(ConfigurationError);
    expect(define(extra)).toThrow(expected);
  });

  it('a bad name is named, whatever its type', () => {
    expect(() => defineTool({ name: 3 as never, description: '', inputSchema: z.object({}), execute: () => '' })).toThrow('defineTool: `name` must be 1-64 letters');
    expect(() => defineTool({ description: '', inputSchema: z.object({}), execute: () => '' } as never)).toThrow('defineTool: `name` is required');
  });
});

describe('workspaceTools: tool names and types', () => {
  it.each([
    [{ tools: ['Red'] }, 'workspaceTools: `tools[0]` must be one of "Read", "Write", "Edit", "Glob", "Grep", "Bash", got the string "Red". Did you mean "Read"?'],
    [{ tools: 'Read' }, '`tools` must be an array of tool names'],
    [{ maxReadBytes: '1000' }, '`maxReadBytes` must be a positive integer, got the string "1000".'],
    [{ env: { PATH: 1 } }, '`env.PATH` must be a string, or undefined to remove it, got 1.'],
    [{ additionalDirectories: '/srv' }, '`additionalDirectories` must be an array of directory paths'],
  ])('%o', (extra, expected) => {
    expect(() => workspaceTools({ cwd: dir, ...(extra as object) })).toThrow(expected);
  });
});
