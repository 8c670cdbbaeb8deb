import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, createAgent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { startMessagesServer } from 'agent-harness/testing/messages-server';

/**
 * README "Quickstart": the history is valid for the API after every run. An agent with no tools at
 * all (its own none, `todoWrite: false`, `exitPlanMode: false`) sends requests that define no tools,
 * and the Messages API refuses every request whose history holds a `tool_use` or `tool_result`
 * block but that defines no tools. A model that calls a tool anyway (a hallucinating or hostile
 * model, a custom Model) must not leave such blocks behind: the session would be dead for good.
 */
describe('a tool call from a model that was given no tools', () => {
  for (const typed of [false, true]) {
    it(`${typed ? 'with an outputSchema (text mode on such an agent)' : 'a plain run'}: the run and the next one are accepted by the API, and nothing ran`, async () => {
      const server = await startMessagesServer({
        responses: [
          { content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_ghost', name: typed ? 'StructuredOutput' : 'search', input: { title: 'T' } }] },
          { content: [{ type: 'text', text: '{"title":"Tide pools"}' }] },
          { content: [{ type: 'text', text: 'You are welcome.' }] },
        ],
      });
      try {
        const model = anthropicModel({ model: 'claude-sonnet-4-6', baseURL: server.url, apiKey: 'test', structuredOutput: false, maxRetries: 0 });
        const agent = createAgent({ model, todoWrite: false, exitPlanMode: false });
        const calls: string[] = [];
        agent.on('tool-call', (event) => calls.push(event.toolName));
        const first = await agent.run('Title it.', typed ? { outputSchema: z.object({ title: z.string() }) } : {}).result;
        expect(first.error?.message).toBeUndefined();
        if (typed) expect(first).toMatchObject({ status: 'completed', output: { title: 'Tide pools' } });
        else expect(first.status).toBe('completed');
        const second = await agent.run('Thanks.').result;
        expect(second.error?.message).toBeUndefined();
        expect(second.status).toBe('completed');
        expect(JSON.stringify(agent.messages)).not.toMatch(/"tool_use"|"tool_result"/);
        expect(calls).toEqual([]);
        // The call is not lost without a word: the history says it was not run.
        expect(JSON.stringify(agent.messages)).toMatch(/no tools/);
      } finally {
        await server.close();
      }
    });
  }

  it('through a custom model (scriptedModel): the call is kept as a note, never as a tool_use block', async () => {
    const model = scriptedModel([turn('Searching.', toolCall('search', { q: 'x' }, 'toolu_ghost')), 'Fine.']);
    const agent = createAgent({ model, todoWrite: false, exitPlanMode: false });
    let streamed = '';
    agent.on('text-delta', (event) => (streamed += event.text));
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    // result.text is what was streamed: the note is for the history, not the model's text.
    expect(result.text).toBe(streamed);
    expect(JSON.stringify(agent.messages)).not.toMatch(/"tool_use"|"tool_result"/);
    expect((await agent.run('again').result).status).toBe('completed');
  });
});
