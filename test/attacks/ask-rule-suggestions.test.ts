// Attack class: an "always allow" button that cannot work. An ask rule (or a rule the call cannot
// be checked against) asks at step 4, before the mode and the allow rules; an allow rule or a
// mode the host echoes from the suggestions cannot spare the next such call its question. The
// README calls each suggestion a ready-made "always allow": a rule's question must offer none,
// rather than a button that silently changes nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent, type CanUseToolContext } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const cwd = mkdtempSync(join(tmpdir(), 'attack-ask-rule-suggestions-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const tools = () => workspaceTools({ cwd }).map((tool) => (tool.name === 'Bash' ? { ...tool, execute: () => 'ran' } : tool));

describe('attack: "always allow" offered for a call an ask rule asks about', () => {
  it.each([
    ['an ask rule on commands', 'Bash(npm:*)', { command: 'npm test' }],
    ['an ask rule on a tool', 'Bash', { command: 'npm test' }],
    ['a command the ask rule cannot be checked against', 'Bash(rm:*)', { command: 'cat $(echo x)' }],
  ] as const)('%s: no suggestion is offered, on canUseTool and on the pending approval', async (_name, rule, input) => {
    const contexts: CanUseToolContext[] = [];
    const asking = createAgent({
      model: scriptedModel([turn(toolCall('Bash', input, 'toolu_1')), turn(toolCall('Bash', input, 'toolu_2')), 'ok']),
      tools: tools(),
      cwd,
      rules: { ask: [rule] },
      // The host clicks "always allow" whenever one is offered.
      canUseTool: (_tool, _input, context) => (contexts.push(context), { behavior: 'allow', updatedPermissions: context.suggestions.slice(0, 1) }),
    });
    await asking.run('go').result;
    expect(contexts.map((context) => context.reason)).toEqual([expect.objectContaining({ type: 'rule', rule }), expect.objectContaining({ type: 'rule', rule })]);
    expect(contexts.map((context) => context.suggestions)).toEqual([[], []]);
    await asking.close();

    const deferring = createAgent({ model: scriptedModel([turn(toolCall('Bash', input, 'toolu_1'))]), tools: tools(), cwd, rules: { ask: [rule] } });
    const { pendingApprovals } = await deferring.run('go').result;
    expect(pendingApprovals.map((approval) => approval.suggestions)).toEqual([[]]);
    await deferring.close();
  });

  it('a call asked for another reason still offers its "always allow", and it works', async () => {
    const contexts: CanUseToolContext[] = [];
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Bash', { command: 'npm test' }, 'toolu_1')), turn(toolCall('Bash', { command: 'npm test' }, 'toolu_2')), 'ok']),
      tools: tools(),
      cwd,
      canUseTool: (_tool, _input, context) => (contexts.push(context), { behavior: 'allow', updatedPermissions: context.suggestions.slice(0, 1) }),
    });
    await agent.run('go').result;
    expect(contexts).toHaveLength(1);
    expect(contexts[0]!.suggestions[0]).toMatchObject({ type: 'addRules', behavior: 'allow', rules: ['Bash(npm test:*)'] });
    await agent.close();
  });
});
