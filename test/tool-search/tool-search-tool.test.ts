import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect } from '../helpers.js';

const deferred = (name: string, description: string) =>
  defineTool({ name, description, inputSchema: z.object({}), readOnly: true, deferLoading: true, execute: () => 'ok' });
const tools = [deferred('get_weather', 'Current weather for a city.'), deferred('send_mail', 'Sends an e-mail.')];

/** What the client-side ToolSearch answers to `query`, for a model that expands references or one that reads text. */
async function search(query: string, references: boolean): Promise<unknown> {
  const model = scriptedModel([turn(toolCall('ToolSearch', { query }, 'c_search')), 'Found.'], references ? { capabilities: { toolSearch: 'tool-reference' } } : {});
  const { events } = await collect(createAgent({ model, tools }).run('find'));
  const result = events.find((event) => event.type === 'tool-result' && event.toolUseId === 'c_search');
  return result?.type === 'tool-result' ? result.content : undefined;
}

describe('ToolSearch "select:"', () => {
  it('returns a tool named more than once once, as a reference, in the order first named', async () => {
    expect(await search('select:get_weather, get_weather,send_mail,get_weather', true)).toEqual([
      { type: 'tool_reference', tool_name: 'get_weather' },
      { type: 'tool_reference', tool_name: 'send_mail' },
    ]);
  });

  it('lists a tool named twice once, as text, and counts it once', async () => {
    const answer = String(await search('select:get_weather,get_weather', false));
    expect(answer.match(/<tool name="get_weather">/g)).toHaveLength(1);
    expect(answer).toMatch(/^Found 1 tool\./);
  });

  it('names an unknown name given twice once', async () => {
    expect(await search('select:get_weather,nope,nope', true)).toEqual([
      { type: 'tool_reference', tool_name: 'get_weather' },
      { type: 'text', text: 'No deferred tool is named "nope".' },
    ]);
  });
});
