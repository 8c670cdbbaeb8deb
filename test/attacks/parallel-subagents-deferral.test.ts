// Attack class: README, Subagents: several Agent calls of one turn run in parallel; a deferral in
// one ends the whole run awaiting-approval, and resolveApproval (here in another process, from the
// store) continues that subagent, then the parent's calls. The sibling that finished before the
// run stopped must not run again, and the parent gets both answers in one user message.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';

describe('attack: two Agent calls of one turn, one waiting on the host', () => {
  it('the sibling that finished is not run again when the other is resolved in another process', async () => {
    const ran: string[] = [];
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (ran.push(input.text), 'ok') });
    const look = defineTool({ name: 'look', description: 'Looks.', inputSchema: z.object({ q: z.string() }), readOnly: true, execute: ({ input }) => (ran.push(`look ${input.q}`), 'seen') });
    const writerModel = scriptedModel([turn(toolCall('write', { text: 'A' }, 'a_w')), 'Writer done.']);
    const lookerModel = scriptedModel([turn(toolCall('look', { q: 'B' }, 'b_l')), 'Looker done.']);
    const parentScript = () => scriptedModel([turn(toolCall('Agent', { description: 'a', prompt: 'a', subagent_type: 'writer' }, 'p_a'), toolCall('Agent', { description: 'b', prompt: 'b', subagent_type: 'looker' }, 'p_b')), 'Parent done.']);
    const store = memorySessionStore();
    const agents = { writer: { description: 'w', prompt: 'w', model: writerModel }, looker: { description: 'l', prompt: 'l', model: lookerModel } };
    const agent = createAgent({ model: parentScript(), tools: [write, look], store, agents });
    const first = await agent.run('go').result;
    expect(first.status).toBe('awaiting-approval');
    expect(ran).toEqual(['look B']);
    await agent.close();
    const parent2 = scriptedModel(['Parent done.']);
    const other = createAgent({ model: parent2, tools: [write, look], store, resume: agent.sessionId, agents });
    await other.ready;
    const done = await other.resolveApproval(other.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['look B', 'A']);
    expect(lookerModel.requests.length).toBe(2);
    expect(validateMessagesRequest(other.messages)).toBeUndefined();
    const results = JSON.stringify(parent2.requests[0]!.messages.at(-1));
    expect(results).toContain('Writer done.');
    expect(results).toContain('Looker done.');
  });
});
