// Property: no sequence of definitions, modes and switches lets a subagent run a call its parent
// could not have run in the same situation (without asking the host), and a subagent's tools are
// always a subset of its parent's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, stricterMode, subagentMode, type PermissionMode } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions'];
const TOOL_NAMES = ['read', 'write', 'gate'] as const;

/** The tools of a run; with `deferred`, read and write are deferred tools (found through tool search, inherited by subagents). */
function tools(ran: Array<{ tool: string; agentId: string | undefined }>, deferred = false) {
  const record = (tool: string) => ({ agent }: { agent: { agentId: string | undefined } }) => (ran.push({ tool, agentId: agent.agentId }), `${tool} ran`);
  return [
    defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({}), readOnly: true, deferLoading: deferred, execute: record('read') }),
    defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', deferLoading: deferred, execute: record('write') }),
    // Always asks: the host's answer is the moment a switch happens.
    defineTool({ name: 'gate', description: 'Asks.', inputSchema: z.object({}), readOnly: true, checkPermissions: () => ({ behavior: 'ask' }), execute: record('gate') }),
  ];
}

const someRules = fc.constantFrom<string[]>([], [], [], ['read'], ['write'], ['read', 'write']);
const rulesArb = fc.record({ allow: someRules, deny: someRules, ask: someRules });

describe('least privilege (property)', () => {
  it('stricterMode is a meet: commutative, idempotent, never looser than either side; subagentMode never bypasses', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MODES), fc.constantFrom(...MODES), fc.constantFrom(...MODES), (a, b, c) => {
        expect(stricterMode(a, b)).toBe(stricterMode(b, a));
        expect(stricterMode(a, a)).toBe(a);
        expect(stricterMode(stricterMode(a, b), c)).toBe(stricterMode(a, stricterMode(b, c)));
        expect(subagentMode(a, b)).not.toBe('bypassPermissions');
        if (a === 'plan' || b === 'plan') expect(subagentMode(a, b)).toBe('plan');
      }),
    );
  });

  it('a subagent never runs what its parent could not, whatever the definitions, modes and switches', async () => {
    const childRuns: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          parentMode: fc.constantFrom(...MODES),
          definitionMode: fc.option(fc.constantFrom(...MODES), { nil: undefined }),
          definitionTools: fc.option(fc.subarray([...TOOL_NAMES]), { nil: undefined, freq: 2 }),
          readOnly: fc.constantFrom(false, false, false, true),
          rules: rulesArb,
          switchTo: fc.option(fc.constantFrom(...MODES), { nil: undefined }),
          target: fc.constantFrom('read', 'write'),
          deferred: fc.boolean(),
        }),
        async ({ parentMode, definitionMode, definitionTools, readOnly, rules, switchTo, target, deferred }) => {
          const ran: Array<{ tool: string; agentId: string | undefined }> = [];
          const common = { tools: tools(ran, deferred), rules, allowDangerouslySkipPermissions: true, autoMode: { classify: () => ({ behavior: 'allow' as const }) } };
          const child = scriptedModel([turn(toolCall('gate', {}, 'c_gate')), turn(toolCall(target, {}, 'c_target')), 'child done']);
          const parentModel = scriptedModel([turn(toolCall('Agent', { description: 'd', prompt: 'p', subagent_type: 'sub' }, 'p_agent')), 'done', 'done', 'done']);
          const parent = createAgent({
            ...common,
            model: parentModel,
            permissionMode: parentMode,
            agents: { sub: { description: 'd', prompt: 'p', model: child, readOnly, ...(definitionTools ? { tools: definitionTools } : {}), ...(definitionMode ? { permissionMode: definitionMode } : {}) } },
          });
          let result = await parent.run('go').result;
          let modeWhenTargetRan = parent.permissionMode;
          for (let guard = 0; result.status === 'awaiting-approval' && guard < 3; guard++) {
            const pending = result.pendingApprovals[0]!;
            if (pending.toolUseId !== 'c_gate') break; // the target itself asks: it does not run without the host
            if (switchTo) parent.setPermissionMode(switchTo);
            modeWhenTargetRan = parent.permissionMode;
            result = await parent.resolveApproval(pending.id, { behavior: 'deny', message: 'no' }).result;
          }
          // Tools: a subset of the parent's, never EnterPlanMode.
          const parentNames = new Set(parentModel.requests[0]!.request.tools!.map((tool) => tool.name));
          for (const request of child.requests) for (const tool of request.request.tools ?? []) expect(parentNames.has(tool.name)).toBe(true);
          const childRan = ran.some((entry) => entry.tool === target && entry.agentId !== undefined);
          if (!childRan) return;
          childRuns.push(`${target} in ${modeWhenTargetRan}${deferred ? ' (deferred)' : ''}`);
          // The oracle: the parent itself, in the mode it had when the subagent's call ran, with the same rules and no host answer.
          const oracleRan: Array<{ tool: string; agentId: string | undefined }> = [];
          const oracle = createAgent({ ...common, tools: tools(oracleRan, deferred), model: scriptedModel([turn(toolCall(target, {}, 'o_target')), 'done']), permissionMode: modeWhenTargetRan });
          await oracle.run('go').result;
          expect(oracleRan.some((entry) => entry.tool === target), JSON.stringify({ parentMode, definitionMode, readOnly, definitionTools, rules, switchTo, target, deferred, modeWhenTargetRan })).toBe(true);
        },
      ),
      { numRuns: 120, seed: 20261201 },
    );
    // Not vacuous: subagents did run reads and writes, under several modes.
    expect(childRuns.some((run) => run.startsWith('write'))).toBe(true);
    expect(childRuns.some((run) => run.startsWith('read'))).toBe(true);
    expect(new Set(childRuns.map((run) => run.split(' in ')[1])).size).toBeGreaterThan(2);
    expect(childRuns.some((run) => run.endsWith('(deferred)'))).toBe(true);
  }, 60_000);
});
