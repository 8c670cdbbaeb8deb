// Attack class: the host's answer to an approval is malformed (a UI bug, a wrongly typed field
// from JSON). It must be refused with a ConfigurationError naming the field and the fix before
// anything is applied, and the user's approval must still be there to answer properly — not used
// up by a call refused for the host's mistake, nor a stop request silently ignored.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, type ApprovalDecision } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

async function waiting() {
  const runs: string[] = [];
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (runs.push(input.text), 'wrote') });
  const model = scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_w')), 'done']);
  const agent = createAgent({ model, tools: [write] });
  const [approval] = (await agent.run('go').result).pendingApprovals;
  return { agent, approval: approval!, runs, model };
}

const malformed: Array<[string, unknown, RegExp]> = [
  ['updatedInput a string', { behavior: 'allow', updatedInput: 'x' }, /decision\.updatedInput must be the tool's input object .* got the string "x"; nothing was applied and the approval is still pending/],
  ['updatedInput null', { behavior: 'allow', updatedInput: null }, /decision\.updatedInput .* got null/],
  ['updatedInput an array', { behavior: 'allow', updatedInput: [{ text: 'x' }] }, /decision\.updatedInput .* got an array/],
  ['interrupt a string', { behavior: 'deny', message: 'No.', interrupt: 'yes' }, /decision\.interrupt must be true or false, got "yes"/],
  ['clearContext a number', { behavior: 'allow', clearContext: 1 }, /decision\.clearContext must be true or false, got 1/],
  ['behavior misspelt', { behavior: 'approve' }, /decision\.behavior must be "allow" or "deny", got "approve"/],
  ['a denial without a message', { behavior: 'deny' }, /a denial needs a `message`/],
];

describe('attack: a malformed decision from the host', () => {
  for (const [name, decision, message] of malformed) {
    it(`${name}: ConfigurationError naming it, the approval still pending and answerable`, async () => {
      const { agent, approval, runs } = await waiting();
      let thrown: unknown;
      try {
        agent.resolveApproval(approval.id, decision as ApprovalDecision);
      } catch (error) {
        thrown = error;
      }
      expect(ConfigurationError.isInstance(thrown)).toBe(true);
      expect((thrown as Error).message).toMatch(message);
      expect(agent.pendingApprovals.map((pending) => pending.id)).toEqual([approval.id]);
      expect((await agent.resolveApproval(approval.id, { behavior: 'allow' }).result).status).toBe('completed');
      expect(runs).toEqual(['x']);
    });
  }

  it('extra keys are ignored, and booleans given as booleans still work', async () => {
    const { agent, approval, runs } = await waiting();
    const result = await agent.resolveApproval(approval.id, { behavior: 'deny', message: 'No.', interrupt: false, note: 'from the UI' } as ApprovalDecision).result;
    expect(result.status).toBe('completed');
    expect(runs).toEqual([]);
  });
});
