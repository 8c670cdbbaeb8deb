/**
 * Pipeline-level properties over random tools, modes, rules, hooks and callback answers.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { decidePermission } from '../../src/permissions/decide-permission.js';
import { isReadOnlyCall } from '../../src/permissions/is-read-only-call.js';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import {
  PERMISSION_MODES,
  type AutoModeOptions,
  type CanUseTool,
  type PermissionResult,
  type ToolPermissionCheck,
} from '../../src/types/permission.js';
import type { HooksConfig, PreToolUseHookOutput } from '../../src/hooks/types.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { Tool, ToolKind } from '../../src/tools/types.js';
import { makeArgs } from './fixtures.js';

type ArbitraryValue<A> = A extends fc.Arbitrary<infer T> ? T : never;

const COMMANDS = ['ls', 'ls -la', 'cat a', 'rm -rf x', 'npm test', 'npm test && rm x', 'git push', 'make'];
const TOOL_NAMES = ['Shell', 'Writer', 'Viewer'];
const RULES = [
  ...TOOL_NAMES,
  'Shell(rm:*)',
  'Shell(npm test:*)',
  'Shell(ls:*)',
  'Shell(make)',
  'Writer(git push:*)',
  'Viewer(cat:*)',
];

const command = fc.constantFrom(...COMMANDS);

const toolCheck = fc.constantFrom<ToolPermissionCheck | 'throw' | undefined>(
  undefined,
  'throw',
  { behavior: 'passthrough' },
  { behavior: 'allow' },
  { behavior: 'deny', message: 'tool says no' },
  { behavior: 'ask', message: 'tool asks' },
  { behavior: 'ask', askReason: { type: 'plan-approval' } },
);

const toolSpec = fc.record({
  name: fc.constantFrom(...TOOL_NAMES),
  readOnly: fc.boolean(),
  kind: fc.constantFrom<ToolKind>('read', 'edit', 'execute', 'other'),
  perCallReadOnly: fc.boolean(),
  check: toolCheck,
});

function buildTool(spec: ArbitraryValue<typeof toolSpec>): Tool {
  return defineTool({
    name: spec.name,
    description: 'random tool',
    inputSchema: z.object({ command: z.string() }),
    readOnly: spec.readOnly,
    kind: spec.kind,
    ruleTarget: { field: 'command', kind: 'command' },
    ...(spec.perCallReadOnly ? { isReadOnlyCall: (input: { command: string }) => /^(ls|cat)\b/.test(input.command) && !input.command.includes('&&') } : {}),
    ...(spec.check === undefined
      ? {}
      : {
          checkPermissions: () => {
            if (spec.check === 'throw') throw new Error('check failed');
            return spec.check as ToolPermissionCheck;
          },
        }),
    execute: () => '',
  });
}

const preToolUseOutput: fc.Arbitrary<PreToolUseHookOutput | 'throw'> = fc.oneof(
  fc.constant('throw' as const),
  fc.record(
    { decision: fc.constantFrom('allow', 'deny', 'ask', 'defer' as const), updatedInput: command.map((value) => ({ command: value })) },
    { requiredKeys: [] },
  ),
);

const answer: fc.Arbitrary<PermissionResult | 'throw' | 'absent'> = fc.oneof(
  fc.constantFrom('throw' as const, 'absent' as const, { behavior: 'defer' as const }, { behavior: 'deny' as const, message: 'host says no' }),
  fc.record({ behavior: fc.constant('allow' as const), updatedInput: command.map((value) => ({ command: value })) }, { requiredKeys: ['behavior'] }),
);

const classifierAnswer = fc.constantFrom(undefined, 'none', 'allow', 'deny', 'ask' as const);

const scenario = fc.record({
  tool: toolSpec,
  mode: fc.constantFrom(...PERMISSION_MODES),
  input: command,
  rules: fc.record({
    allow: fc.subarray(RULES, { maxLength: 3 }),
    deny: fc.subarray(RULES, { maxLength: 2 }),
    ask: fc.subarray(RULES, { maxLength: 2 }),
  }),
  preToolUse: fc.array(preToolUseOutput, { maxLength: 3 }),
  permissionRequest: fc.option(fc.constantFrom('allow', 'deny', undefined), { nil: 'none' as const }),
  answer,
  classifier: classifierAnswer,
});

type Scenario = ArbitraryValue<typeof scenario>;

function buildHooks(s: Scenario): HooksConfig {
  return {
    PreToolUse: s.preToolUse.map((output) => ({
      hook: () => {
        if (output === 'throw') throw new Error('hook failed');
        return output;
      },
    })),
    ...(s.permissionRequest === 'none' ? {} : { PermissionRequest: [{ hook: () => ({ decision: s.permissionRequest as 'allow' | 'deny' | undefined, message: 'hook says' }) }] }),
  };
}

function buildAutoMode(s: Scenario): AutoModeOptions | undefined {
  if (s.classifier === undefined) return undefined;
  return { classify: () => (s.classifier === 'none' ? undefined : { behavior: s.classifier as 'allow' | 'deny' | 'ask' }) };
}

async function run(s: Scenario) {
  const tool = buildTool(s.tool);
  const rules = createRuleSet(s.rules);
  const canUseTool = vi.fn<CanUseTool>(() => {
    if (s.answer === 'throw') throw new Error('host failed');
    return s.answer as PermissionResult;
  });
  const { args } = makeArgs({
    tool,
    rawInput: { command: s.input },
    mode: s.mode,
    rules,
    hooks: buildHooks(s),
    canUseTool: s.answer === 'absent' ? undefined : canUseTool,
    autoMode: buildAutoMode(s),
  });
  const outcome = await decidePermission(args);
  return { tool, rules, canUseTool, outcome };
}

const RUNS = { numRuns: 1500 };

describe('decidePermission properties', () => {
  it('never allows a call that is not read-only in plan mode', async () => {
    await fc.assert(
      fc.asyncProperty(scenario.map((s) => ({ ...s, mode: 'plan' as const })), async (s) => {
        const { tool, outcome } = await run(s);
        if (outcome.decision.behavior !== 'allow') return;
        expect(isReadOnlyCall(tool, outcome.decision.input)).toBe(true);
      }),
      RUNS,
    );
  });

  it('never calls canUseTool in dontAsk mode (and never defers there)', async () => {
    await fc.assert(
      fc.asyncProperty(scenario.map((s) => ({ ...s, mode: 'dontAsk' as const })), async (s) => {
        const { canUseTool, outcome } = await run(s);
        expect(canUseTool).not.toHaveBeenCalled();
        expect(outcome.decision.behavior).not.toBe('defer');
      }),
      RUNS,
    );
  });

  it('deny rules always win: a matching call is denied, and nothing allowed matches one', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { tool, rules, outcome } = await run(s);
        const rewritten = s.preToolUse.some((output) => output !== 'throw' && output.updatedInput !== undefined);
        if (!rewritten && rules.match('deny', tool, { command: s.input })) expect(outcome.decision.behavior).toBe('deny');
        if (outcome.decision.behavior === 'allow') expect(rules.match('deny', tool, outcome.decision.input)).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('bypassPermissions asks the host only when an ask rule or a PreToolUse hook asks', async () => {
    await fc.assert(
      fc.asyncProperty(scenario.map((s) => ({ ...s, mode: 'bypassPermissions' as const })), async (s) => {
        const { tool, rules, canUseTool } = await run(s);
        if (canUseTool.mock.calls.length === 0) return;
        const askedInput = canUseTool.mock.calls[0]![1];
        const hookAsked = s.preToolUse.some((output) => output !== 'throw' && output.decision === 'ask');
        expect(hookAsked || rules.match('ask', tool, askedInput) !== undefined).toBe(true);
      }),
      RUNS,
    );
  });

  it('always decides, with an input for allow and a message for deny', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { outcome } = await run(s);
        const { decision } = outcome;
        if (decision.behavior === 'allow') expect(decision.input).toEqual(expect.objectContaining({ command: expect.any(String) }));
        if (decision.behavior === 'deny') expect(decision.message).toEqual(expect.any(String));
        if (decision.behavior === 'defer') expect(outcome.suggestions).toEqual(expect.any(Array));
      }),
      RUNS,
    );
  });
});
