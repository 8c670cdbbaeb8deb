// A catastrophic command is a hard deny: refused in every mode, including bypassPermissions, and
// neither a PreToolUse hook's allow, a rewrite, canUseTool's allow nor an edited approval can
// get it run (issue 10). The commands used here are classified catastrophic but would fail
// harmlessly if they ever ran (a device that does not exist), and leave a marker if they did.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../../src/agent/create-agent.js';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { decidePermission } from '../../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../../src/permissions/rule-set.js';
import type { PermissionMode } from '../../../src/types/permission.js';
import { scriptedModel, toolCall, turn } from '../../../src/testing/index.js';
import type { Tool } from '../../../src/tools/types.js';
import { agentContext } from '../../permissions/fixtures.js';
import { makeTempDir, toolNamed } from './helpers.js';

let work: string;
let bash: Tool;
let marker: string;
let catastrophic: string;
beforeEach(async () => {
  work = await makeTempDir('ws-hard-deny-');
  marker = path.join(work, 'ran');
  catastrophic = `shred /dev/agent-harness-missing-device; touch ${marker}`;
  bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
});
afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

const MODES: PermissionMode[] = ['default', 'plan', 'acceptEdits', 'auto', 'dontAsk', 'bypassPermissions'];

async function decide(mode: PermissionMode, extra: Record<string, unknown> = {}, rawInput: unknown = { command: catastrophic }) {
  const outcome = await decidePermission({
    tool: bash,
    toolUseId: 'toolu_cat',
    rawInput,
    mode,
    rules: createRuleSet({ allow: ['Bash', 'Bash(shred:*)'] }),
    signal: new AbortController().signal,
    agent: agentContext(mode),
    emit: () => {},
    cwd: work,
    canUseTool: async () => ({ behavior: 'allow' }),
    ...extra,
  } as never);
  return outcome.decision;
}

describe('catastrophic commands are a hard deny', () => {
  it.each(MODES)('refused in %s mode, with an allow rule and an allowing canUseTool', async (mode) => {
    const decision = await decide(mode);
    expect(decision.behavior).toBe('deny');
    expect(decision.reason.type).toBe('validation');
  });

  it.each(MODES)('a PreToolUse hook that allows does not override it (%s)', async (mode) => {
    const decision = await decide(mode, { hooks: { PreToolUse: [{ hook: () => ({ decision: 'allow' }) }] } });
    expect(decision.behavior).toBe('deny');
  });

  it.each(MODES)('a PreToolUse hook cannot rewrite a harmless command into one (%s)', async (mode) => {
    const decision = await decide(mode, { hooks: { PreToolUse: [{ hook: () => ({ decision: 'allow', updatedInput: { command: 'rm -rf /' } }) }] } }, { command: 'ls' });
    expect(decision.behavior).toBe('deny');
  });

  it('canUseTool cannot edit a harmless command into one', async () => {
    const decision = await decide('default', { rules: createRuleSet(), canUseTool: async () => ({ behavior: 'allow', updatedInput: { command: 'cd / && rm -rf *' } }) }, { command: 'touch x' });
    expect(decision.behavior).toBe('deny');
  });

  it('execute refuses it too (a host calling the tool directly)', async () => {
    const raw = await bash.execute({ input: { command: catastrophic }, toolUseId: 't', agent: agentContext('bypassPermissions'), signal: new AbortController().signal });
    expect(JSON.stringify(raw)).toMatch(/Refused, in every permission mode/);
    await expect(fs.access(marker)).rejects.toThrow();
  });

  it('end to end in bypassPermissions: the model is told, nothing runs', async () => {
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Bash', { command: catastrophic }, 'b1')), 'ok']),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      cwd: work,
    });
    const result = await agent.run('clean up').result;
    expect(result.status).toBe('completed');
    expect(JSON.stringify(agent.messages)).toMatch(/Refused, in every permission mode: shred on a device|onto \/dev\/agent-harness-missing-device/);
    await expect(fs.access(marker)).rejects.toThrow();
  });

  it('a pending approval resolved with an edited catastrophic input is refused', async () => {
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Bash', { command: 'touch harmless' }, 'b1')), 'ok']),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'default',
      cwd: work,
    });
    const first = await agent.run('go').result;
    expect(first.status).toBe('awaiting-approval');
    const [pending] = agent.pendingApprovals;
    await agent.resolveApproval(pending!.id, { behavior: 'allow', updatedInput: { command: catastrophic } }).result;
    await expect(fs.access(marker)).rejects.toThrow();
    expect(JSON.stringify(agent.messages)).toMatch(/Refused|not run/);
  });
});
