/**
 * The pipeline table: every mode × tool kind × rule × canUseTool answer, against an oracle
 * written from the documented rules (DESIGN.md §4, issue 3), not from the implementation.
 */
import { describe, expect, it, vi } from 'vitest';
import { decidePermission } from '../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../src/permissions/rule-set.js';
import { PERMISSION_MODES, type PermissionMode, type PermissionReason, type PermissionResult } from '../../src/types/permission.js';
import { bashTool, editTool, makeArgs, readTool } from './fixtures.js';

type Kind = 'read-only' | 'edit' | 'execute';
type Rule = 'none' | 'allow' | 'deny' | 'ask';
type Callback = 'allow' | 'deny' | 'defer' | 'absent';

const CALLS = {
  'read-only': { tool: readTool, input: { file_path: 'docs/a.md' }, rule: 'Read(docs/**)' },
  edit: { tool: editTool, input: { file_path: 'src/a.ts' }, rule: 'Edit(src/**)' },
  execute: { tool: bashTool, input: { command: 'npm run build' }, rule: 'Bash(npm run:*)' },
} as const;

const ANSWERS: Record<Exclude<Callback, 'absent'>, PermissionResult> = {
  allow: { behavior: 'allow' },
  deny: { behavior: 'deny', message: 'no thanks' },
  defer: { behavior: 'defer' },
};

interface Expected {
  behavior: 'allow' | 'deny' | 'defer';
  reason: Partial<PermissionReason>;
  /** Whether the question reaches the host (permission-request event and, if present, canUseTool). */
  asksHost: boolean;
}

/** The documented rules, written out independently of the implementation. */
function oracle(mode: PermissionMode, kind: Kind, rule: Rule, callback: Callback): Expected {
  const readOnly = kind === 'read-only';
  const ask = (reason: PermissionReason): Expected => {
    // Plan mode refuses what is not read-only without asking; dontAsk refuses every question.
    if (mode === 'plan' && !readOnly) return { behavior: 'deny', reason: { type: 'mode', mode: 'plan' }, asksHost: false };
    if (mode === 'dontAsk') return { behavior: 'deny', reason: { type: 'mode', mode: 'dontAsk' }, asksHost: false };
    if (callback === 'allow') return { behavior: 'allow', reason: { type: 'callback' }, asksHost: true };
    if (callback === 'deny') return { behavior: 'deny', reason: { type: 'callback', message: 'no thanks' }, asksHost: true };
    return { behavior: 'defer', reason, asksHost: true };
  };
  const ruleString = CALLS[kind].rule;
  if (rule === 'deny') return { behavior: 'deny', reason: { type: 'rule', behavior: 'deny', rule: ruleString }, asksHost: false };
  if (rule === 'ask') return ask({ type: 'rule', behavior: 'ask', rule: ruleString });
  if (mode === 'bypassPermissions') return { behavior: 'allow', reason: { type: 'mode', mode }, asksHost: false };
  if (mode === 'plan' && !readOnly) return { behavior: 'deny', reason: { type: 'mode', mode: 'plan' }, asksHost: false };
  if (mode === 'acceptEdits' && kind === 'edit') return { behavior: 'allow', reason: { type: 'mode', mode }, asksHost: false };
  if (rule === 'allow') return { behavior: 'allow', reason: { type: 'rule', behavior: 'allow', rule: ruleString }, asksHost: false };
  if (readOnly) return { behavior: 'allow', reason: { type: 'read-only' }, asksHost: false };
  return ask({ type: 'default' });
}

const KINDS: Kind[] = ['read-only', 'edit', 'execute'];
const RULES: Rule[] = ['none', 'allow', 'deny', 'ask'];
const CALLBACKS: Callback[] = ['allow', 'deny', 'defer', 'absent'];
const rows = PERMISSION_MODES.flatMap((mode) =>
  KINDS.flatMap((kind) => RULES.flatMap((rule) => CALLBACKS.map((callback) => [mode, kind, rule, callback] as const))),
);

describe('decidePermission table', () => {
  it('covers 6 modes × 3 kinds × 4 rules × 4 answers', () => {
    expect(rows).toHaveLength(288);
  });

  it.each(rows)('%s / %s tool / %s rule / canUseTool %s', async (mode, kind, rule, callback) => {
    const call = CALLS[kind];
    const canUseTool = callback === 'absent' ? undefined : vi.fn(async () => ANSWERS[callback]);
    // In auto mode the classifier is present but undecided, so questions go on to the host.
    const classify = vi.fn(() => undefined);
    const { args, events } = makeArgs({
      tool: call.tool,
      rawInput: call.input,
      mode,
      rules: createRuleSet(rule === 'none' ? {} : { [rule]: [call.rule] }),
      canUseTool,
      autoMode: { classify },
      cwd: '/work/project',
    });
    const expected = oracle(mode, kind, rule, callback);

    const { decision, input, suggestions } = await decidePermission(args);

    expect(decision.behavior).toBe(expected.behavior);
    expect(decision.reason).toMatchObject(expected.reason);
    expect(decision).toMatchObject({ toolName: call.tool.name, toolUseId: 'toolu_1' });
    expect(input).toEqual(call.input);
    if (decision.behavior === 'allow') expect(decision.input).toEqual(call.input);
    if (decision.behavior === 'deny') expect(decision.message).toEqual(expect.any(String));
    // An ask rule asks before the mode and the allow rules: an "always allow" could not spare the next call its question, so none is offered.
    if (decision.behavior === 'defer' && rule === 'ask') expect(suggestions).toEqual([]);
    else if (decision.behavior === 'defer') expect(suggestions?.length).toBeGreaterThan(0);
    if (canUseTool) expect(canUseTool).toHaveBeenCalledTimes(expected.asksHost ? 1 : 0);
    expect(events.filter((event) => event.type === 'permission-request')).toHaveLength(expected.asksHost ? 1 : 0);
    expect(classify).toHaveBeenCalledTimes(mode === 'auto' && expected.asksHost ? 1 : 0);
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
  });
});
