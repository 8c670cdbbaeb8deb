import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, ConfigurationError, createAgent, defineTool, StructuredOutputError } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { startMessagesServer } from 'agent-harness/testing/messages-server';

const Outline = z.object({ title: z.string(), sections: z.array(z.string()).min(1), words: z.number().int() });
const valid = JSON.stringify({ title: 'Tide pools', sections: ['Intro', 'Life'], words: 800 });
const lastUserText = (messages: readonly { role: string; content: unknown }[]) =>
  (messages.filter((message) => message.role === 'user').at(-1)!.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('\n');

describe('structured output for any run', () => {
  it('returns the final answer parsed, validated and typed; the schema is shown in the prompt for a model without native support', async () => {
    const model = scriptedModel([`Here it is:\n\`\`\`json\n${valid}\n\`\`\``]);
    const agent = createAgent({ model });
    const result = await agent.run('Outline an article about tide pools.', { outputSchema: Outline }).result;
    expect(result.status).toBe('completed');
    expect(result.output).toEqual({ title: 'Tide pools', sections: ['Intro', 'Life'], words: 800 });
    expectTypeOf(result.output).toEqualTypeOf<{ title: string; sections: string[]; words: number } | undefined>();
    expect(result.outputAttempts).toBe(1);
    const prompt = lastUserText(model.requests[0]!.messages);
    expect(prompt).toContain('JSON Schema');
    expect(prompt).toContain('"sections"');
    expect(model.requests[0]!.request.outputFormat).toBeUndefined();
  });

  it('sends an invalid answer back with what was wrong, then accepts the corrected one', async () => {
    const model = scriptedModel([JSON.stringify({ title: 'Tide pools', sections: [], words: 12.5 }), valid]);
    const result = await createAgent({ model }).run('Outline it.', { outputSchema: Outline }).result;
    expect(result.status).toBe('completed');
    expect(result.outputAttempts).toBe(2);
    const retry = lastUserText(model.requests[1]!.messages);
    expect(retry).toMatch(/could not be used/);
    expect(retry).toMatch(/sections/);
    expect(retry).toMatch(/words/);
  });

  it('ends with StructuredOutputError when no answer validates, keeping the text', async () => {
    const model = scriptedModel(['not json at all', 'still not json']);
    const result = await createAgent({ model }).run('Outline it.', { outputSchema: Outline, outputRetries: 1 }).result;
    expect(result.status).toBe('error');
    expect(StructuredOutputError.isInstance(result.error)).toBe(true);
    expect(result.error).toMatchObject({ attempts: 2, responseText: 'still not json' });
    expect(result.output).toBeUndefined();
    const none = await createAgent({ model: scriptedModel(['{}']) }).run('x', { outputSchema: Outline, outputRetries: 0 }).result;
    expect((none.error as StructuredOutputError).issues.join(' ')).toMatch(/title/);
  });

  it('lets the model use tools first; only the final answer is checked', async () => {
    const lookup = defineTool({ name: 'lookup', description: 'Looks up.', inputSchema: z.object({ q: z.string() }), readOnly: true, execute: () => 'facts' });
    const model = scriptedModel([turn('Checking.', toolCall('lookup', { q: 'tide pools' })), valid]);
    const result = await createAgent({ model, tools: [lookup] }).run('Outline it.', { outputSchema: Outline }).result;
    expect(result.output?.title).toBe('Tide pools');
  });

  it('accepts a plain JSON Schema object', async () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };
    const result = await createAgent({ model: scriptedModel(['{"ok":true}']) }).run('Check.', { outputSchema: schema }).result;
    expect(result.output).toEqual({ ok: true });
  });

  it('uses native structured output where the model has it (through the real SDK and the loopback server)', async () => {
    const server = await startMessagesServer({ responses: [{ content: [{ type: 'text', text: valid }] }] as never });
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-5', baseURL: server.url, apiKey: 'test' });
      const result = await createAgent({ model }).run('Outline it.', { outputSchema: Outline }).result;
      expect(result.output?.words).toBe(800);
      const body = server.requests[0]! as { output_config?: { format?: { type: string; schema: { properties: Record<string, unknown> } } }; messages: unknown[] };
      expect(body.output_config?.format?.type).toBe('json_schema');
      expect(Object.keys(body.output_config!.format!.schema.properties)).toEqual(['title', 'sections', 'words']);
      expect(JSON.stringify(body.messages)).not.toContain('JSON Schema');
    } finally {
      await server.close();
    }
  });

  it('refuses a schema that is not one, and a bad outputRetries, naming them', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    expect(() => agent.run('x', { outputSchema: 'object' as never })).toThrow(ConfigurationError);
    expect(() => agent.run('x', { outputSchema: Outline, outputRetries: -1 })).toThrow(/outputRetries/);
  });
});
