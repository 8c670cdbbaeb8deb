// Attack class: a host that changes, in place, an object the agent handed it about a call — the
// input given to the `auto` classifier, a pending approval's `input` (from the run's result, from
// `agent.pendingApprovals`), the `input` of a `permission-request` or `tool-call` event. The README
// promises that hooks and `canUseTool` get their own copy ("changing it in place changes
// nothing"), that a rewrite is `updatedInput` (validated again, and the model told), and that what
// runs for an approval is the input the approval showed. A change in place must therefore neither
// run, nor refuse the call, nor alter the history.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentOptions, type ToolResultBlock, type ToolUseBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

function writeTool() {
  const runs: unknown[] = [];
  const write = defineTool({
    name: 'write',
    description: 'Writes.',
    inputSchema: z.object({ text: z.string() }),
    kind: 'edit',
    execute: ({ input }) => (runs.push(input.text), `wrote ${input.text}`),
  });
  return { runs, write };
}

const tamper = (input: unknown) => void ((input as { text: unknown }).text = 'changed in place');
const blocks = (messages: readonly { content: unknown }[]) => messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as Array<ToolUseBlock | ToolResultBlock>) : []));

async function expectOriginalRan(model: ReturnType<typeof scriptedModel>, agent: { messages: readonly { content: unknown }[] }, runs: unknown[]) {
  expect(runs).toEqual(['orig']);
  expect(blocks(agent.messages).find((block) => block.type === 'tool_use')).toMatchObject({ input: { text: 'orig' } });
  const result = blocks(model.requests.at(-1)!.messages).find((block) => block.type === 'tool_result') as ToolResultBlock;
  expect(result).toMatchObject({ content: 'wrote orig' });
  expect(result.is_error).toBeUndefined();
}

describe('attack: the auto classifier changes its input in place', () => {
  it('the host is asked about, and runs, the call the model made', async () => {
    const { runs, write } = writeTool();
    const asked: unknown[] = [];
    const model = scriptedModel([turn(toolCall('write', { text: 'orig' }, 'toolu_1')), 'ok']);
    const options: AgentOptions = {
      model,
      tools: [write],
      permissionMode: 'auto',
      autoMode: { classify: ({ input }) => (tamper(input), { behavior: 'ask' }) },
      canUseTool: (_name, input) => (asked.push(structuredClone(input)), { behavior: 'allow' }),
    };
    const agent = createAgent(options);
    expect((await agent.run('go').result).status).toBe('completed');
    expect(asked).toEqual([{ text: 'orig' }]);
    await expectOriginalRan(model, agent, runs);
  });

  it('an input changed to one the schema refuses is not run unvalidated', async () => {
    const { runs, write } = writeTool();
    const model = scriptedModel([turn(toolCall('write', { text: 'orig' }, 'toolu_1')), 'ok']);
    const agent = createAgent({
      model,
      tools: [write],
      permissionMode: 'auto',
      autoMode: { classify: ({ input }) => (((input as { text: unknown }).text = 42), { behavior: 'allow' }) },
    });
    expect((await agent.run('go').result).status).toBe('completed');
    await expectOriginalRan(model, agent, runs);
  });
});

describe('attack: a pending approval or an event changed in place by the host', () => {
  const where = {
    "the run result's pendingApprovals": (result: { pendingApprovals: readonly { input: unknown }[] }) => tamper(result.pendingApprovals[0]!.input),
    'agent.pendingApprovals': (_result: unknown, agent: { pendingApprovals: readonly { input: unknown }[] }) => tamper(agent.pendingApprovals[0]!.input),
  } as const;
  for (const [name, change] of Object.entries(where)) {
    it(`${name}: allowing runs the input the approval showed, not refused as a changed tool`, async () => {
      const { runs, write } = writeTool();
      const model = scriptedModel([turn(toolCall('write', { text: 'orig' }, 'toolu_1')), 'ok']);
      const agent = createAgent({ model, tools: [write] });
      const result = await agent.run('go').result;
      change(result, agent);
      expect(agent.pendingApprovals[0]!.input).toEqual({ text: 'orig' });
      expect(JSON.stringify(agent.snapshot())).not.toContain('changed in place');
      const done = await agent.resolveApproval(result.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
      expect(done.status).toBe('completed');
      await expectOriginalRan(model, agent, runs);
    });
  }

  for (const event of ['permission-request', 'tool-call'] as const) {
    it(`a ${event} listener: the call asked and run is the model's (deferred and with canUseTool)`, async () => {
      for (const withCallback of [false, true]) {
        const { runs, write } = writeTool();
        const asked: unknown[] = [];
        const model = scriptedModel([turn(toolCall('write', { text: 'orig' }, 'toolu_1')), 'ok']);
        const agent = createAgent({
          model,
          tools: [write],
          ...(withCallback ? { canUseTool: (_name: string, input: unknown) => (asked.push(structuredClone(input)), { behavior: 'allow' as const }) } : {}),
        });
        agent.on(event, (payload) => tamper(payload.input));
        const result = await agent.run('go').result;
        if (!withCallback) {
          expect(result.pendingApprovals[0]!.input).toEqual({ text: 'orig' });
          await agent.resolveApproval(result.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
        } else expect(asked).toEqual([{ text: 'orig' }]);
        await expectOriginalRan(model, agent, runs);
      }
    });
  }
});

describe('attack: a PostToolUse hook changes the tool\'s response in place', () => {
  it('neither the model nor the host (the tool-result event\'s output) sees the change', async () => {
    const count = defineTool({ name: 'count', description: 'Counts.', inputSchema: z.object({}), execute: () => ({ files: 3 }) });
    const model = scriptedModel([turn(toolCall('count', {}, 'toolu_1')), 'ok']);
    const agent = createAgent({
      model,
      tools: [count],
      canUseTool: () => ({ behavior: 'allow' }),
      hooks: { PostToolUse: [{ hook: ({ toolResponse }) => (((toolResponse as { files: unknown }).files = 'changed in place'), {}) }] },
    });
    const outputs: unknown[] = [];
    agent.on('tool-result', (event) => void outputs.push(event.output));
    expect((await agent.run('go').result).status).toBe('completed');
    expect(outputs).toEqual([{ files: 3 }]);
    expect(JSON.stringify(model.requests[1]!.messages.at(-1)!.content)).not.toContain('changed in place');
  });
});
