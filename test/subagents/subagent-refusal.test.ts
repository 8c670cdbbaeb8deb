// A subagent whose model refuses: none of its refused calls runs, the parent's model is told it was
// a refusal (not a finished report; what it had written is withheld unless `refusedAnswers: 'keep'`), and the parent's run goes on from its own, unrefused history.
import { describe, expect, it } from 'vitest';
import { createAgent, defineTool, type AgentEvent, type Message } from 'agent-harness';
import { z } from 'zod';
import { scriptedModel, text, toolCall, turn } from 'agent-harness/testing';

function countingTool() {
  const ran: string[] = [];
  const tool = defineTool({ name: 'lookup', description: 'Looks up.', inputSchema: z.object({ q: z.string() }), readOnly: true, execute: ({ input }) => (ran.push(input.q), 'facts') });
  return { tool, ran };
}

const resultsOf = (messages: readonly Message[]) =>
  messages.flatMap((message) => (Array.isArray(message.content) ? message.content.filter((block) => block.type === 'tool_result') : [])) as Array<{ tool_use_id: string; content: unknown; is_error?: boolean }>;

describe('a refusal inside a subagent', () => {
  it.each([
    ['with text and a call', turn(text('Sure, looking up'), toolCall('lookup', { q: 'x' }), { stopReason: 'refusal' }), 'Sure, looking up'],
    ['with a call and no text', turn(toolCall('lookup', { q: 'x' }), { stopReason: 'refusal' }), undefined],
    ['with nothing kept', turn({ stopReason: 'refusal' }), undefined],
  ])('%s: nothing of it runs; the parent model is told the subagent refused; the parent goes on', async (_name, refused, partial) => {
    const { tool, ran } = countingTool();
    const child = scriptedModel([refused, 'Asked again.']);
    const parent = scriptedModel([turn(toolCall('Agent', { description: 'research', prompt: 'look', subagent_type: 'worker' }, 'toolu_agent')), 'I will answer without it.']);
    const stops: Array<string | null> = [];
    const agent = createAgent({ model: parent, tools: [tool], agents: { worker: { description: 'Works.', prompt: 'Work.', model: child } }, hooks: { SubagentStop: [{ hook: (input) => void stops.push(input.stopReason) }] } });
    const result = await agent.run('go').result;
    expect(stops).toEqual(['refusal']);
    expect(ran).toEqual([]);
    expect(child.requests).toHaveLength(1);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'end_turn', text: 'I will answer without it.' });
    expect(result.subagents?.[0]).toMatchObject({ status: 'completed', stopReason: 'refusal' });
    const told = resultsOf(parent.requests[1]!.messages).find((block) => block.tool_use_id === 'toolu_agent')!;
    const content = JSON.stringify(told.content);
    expect(content).toContain('refusal');
    expect(content).not.toContain('finished without a final message');
    // The refused text is withheld from the parent's history (refused context would go on in it).
    if (partial) expect(content).not.toContain(partial);
    if (partial) expect(content).toContain('withheld');
  });

  it('with refusedAnswers: keep, the parent model gets the refused text as a cut-off report', async () => {
    const child = scriptedModel([turn(text('Sure, looking up'), toolCall('lookup', { q: 'x' }), { stopReason: 'refusal' })]);
    const parent = scriptedModel([turn(toolCall('Agent', { description: 'research', prompt: 'look', subagent_type: 'worker' }, 'toolu_agent')), 'Done.']);
    const { tool } = countingTool();
    const agent = createAgent({ model: parent, tools: [tool], refusedAnswers: 'keep', agents: { worker: { description: 'Works.', prompt: 'Work.', model: child } } });
    await agent.run('go').result;
    const told = resultsOf(parent.requests[1]!.messages).find((block) => block.tool_use_id === 'toolu_agent')!;
    expect(JSON.stringify(told.content)).toContain('Sure, looking up');
    expect(JSON.stringify(told.content)).toContain('refusal');
  });
});

describe('a refusal inside a background subagent', () => {
  it.each([
    ['with text', turn('Sure, the answer is', { stopReason: 'refusal' }), 'Sure, the answer is'],
    ['without text', turn({ stopReason: 'refusal' }), undefined],
  ])('%s: its output, and the notification the parent model gets, say it was a refusal', async (_name, refused, partial) => {
    const child = scriptedModel([refused]);
    const parent = scriptedModel([turn(toolCall('Agent', { description: 'long job', prompt: 'look', subagent_type: 'worker', run_in_background: true }, 'toolu_bg')), 'Started.', 'Noted.']);
    const agent = createAgent({ model: parent, agents: { worker: { description: 'Works.', prompt: 'Work.', model: child } } });
    const ended = new Promise<AgentEvent>((resolve) => agent.once('background-task-end', resolve));
    await agent.run('go').result;
    const event = (await ended) as { output: string; task: { status: string } };
    expect(event.task.status).toBe('completed');
    expect(event.output).toContain('refusal');
    if (partial) expect(event.output).not.toContain(partial);
    await agent.run('what happened?').result;
    expect(JSON.stringify(parent.requests.at(-1)!.messages.at(-1))).toContain('refusal');
  });
});
