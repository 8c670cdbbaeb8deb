import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentDefinition, type RequestTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { createAgentTools } from '../../src/subagents/agent-tool.js';
import type { AgentCore } from '../../src/runtime/agent-core.js';

const definition = (description: string): AgentDefinition => ({ description, prompt: 'You work.' });
const noParent = (): AgentCore => {
  throw new Error('not called');
};
const agentTool = (agents: Record<string, AgentDefinition>) => createAgentTools(noParent, { agents })[0]!;
const typesOf = (tool: { jsonSchema: Record<string, unknown> }) => (tool.jsonSchema as { properties: { subagent_type: { enum: string[] } } }).properties.subagent_type.enum;

describe('the Agent tool input schema', () => {
  it('is one for all agents with the same subagent types: made and compiled once', () => {
    const first = agentTool({ writer: definition('Writes.'), checker: definition('Checks.') });
    // Other definitions, same names in the same order: the same schema and parser.
    const second = agentTool({ writer: definition('Writes well.'), checker: definition('Checks twice.') });
    expect(second.jsonSchema).toBe(first.jsonSchema);
    expect(second.parseInput).toBe(first.parseInput);
    // The description is each agent's own: it lists its definitions.
    expect(second.description).toContain('Writes well.');
    expect(first.description).not.toContain('Writes well.');
    // The TaskOutput tool shares its schema too.
    expect(createAgentTools(noParent, { agents: { a: definition('A.') } })[1]!.parseInput).toBe(createAgentTools(noParent, { agents: { b: definition('B.') } })[1]!.parseInput);
  });

  it('lists exactly the agent’s own types, whatever other agents were made before or after it, past the 64 lists kept', () => {
    const first = agentTool({ writer: definition('Writes.') });
    const others = Array.from({ length: 70 }, (_, index) => agentTool({ [`type_${index}`]: definition('Other.') }));
    expect(typesOf(first)).toEqual(['writer']);
    others.forEach((tool, index) => expect(typesOf(tool)).toEqual([`type_${index}`]));
    // "writer" was dropped from the kept lists: made again, the same.
    const again = agentTool({ writer: definition('Writes.') });
    expect(typesOf(again)).toEqual(['writer']);
    expect(again.parseInput({ description: 'x', prompt: 'y', subagent_type: 'type_3' })).toMatchObject({ ok: false });
    expect(again.parseInput({ description: 'x', prompt: 'y', subagent_type: 'writer' })).toMatchObject({ ok: true });
    // Order counts: another order is another enum, as the model reads it.
    expect(typesOf(agentTool({ b: definition('B.'), a: definition('A.') }))).toEqual(['b', 'a']);
    expect(typesOf(agentTool({ a: definition('A.'), b: definition('B.') }))).toEqual(['a', 'b']);
  });

  it('refuses, in an agent, a call to a type only another agent has', async () => {
    const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({}), readOnly: true, execute: () => 'read' });
    createAgent({ model: scriptedModel(['unused']), tools: [read], agents: { editor: definition('Edits.') } });
    const model = scriptedModel([turn(toolCall('Agent', { description: 'job', prompt: 'Do it.', subagent_type: 'editor' }, 'call_1')), 'Done.']);
    const agent = createAgent({ model, tools: [read], agents: { writer: { ...definition('Writes.'), model: scriptedModel(['written']) } } });
    const result = await agent.run('Go.').result;
    expect(result.status).toBe('completed');
    const tools = model.requests[0]!.request.tools as RequestTool[];
    const agentDefinition = tools.find((tool) => tool.name === 'Agent') as unknown as { input_schema: { properties: { subagent_type: { enum: string[] } } } };
    expect(agentDefinition.input_schema.properties.subagent_type.enum).toEqual(['writer']);
    const answer = JSON.stringify(agent.messages[2]!.content);
    expect(answer).toContain('is_error');
    expect(answer).toContain('writer');
  });
});
