import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, ConfigurationError, createAgent, deferTool, defineTool, memorySessionStore, StructuredOutputError } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { startMessagesServer } from 'agent-harness/testing/messages-server';
import { dyingStore } from '../session/dying-store.js';

const Outline = z.object({ title: z.string(), sections: z.array(z.string()).min(1), words: z.number().int() });
const valid = JSON.stringify({ title: 'Tide pools', sections: ['Intro', 'Life'], words: 800 });
const lastUserText = (messages: readonly { role: string; content: unknown }[]) =>
  (messages.filter((message) => message.role === 'user').at(-1)!.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('\n');

describe('structured output for any run', () => {
  it('returns the final answer parsed, validated and typed; with outputMode "text" the schema is shown in the prompt and the tools stay the session\'s', async () => {
    const model = scriptedModel([`Here it is:\n\`\`\`json\n${valid}\n\`\`\``]);
    const agent = createAgent({ model });
    const result = await agent.run('Outline an article about tide pools.', { outputSchema: Outline, outputMode: 'text' }).result;
    expect(result.status).toBe('completed');
    expect(result.output).toEqual({ title: 'Tide pools', sections: ['Intro', 'Life'], words: 800 });
    expectTypeOf(result.output).toEqualTypeOf<{ title: string; sections: string[]; words: number } | undefined>();
    expect(result.outputAttempts).toBe(1);
    const prompt = lastUserText(model.requests[0]!.messages);
    expect(prompt).toContain('JSON Schema');
    expect(prompt).toContain('"sections"');
    expect(model.requests[0]!.request.outputFormat).toBeUndefined();
    expect(model.requests[0]!.request.tools.map((tool) => tool.name)).not.toContain('StructuredOutput');
  });

  it('by default a model without native support answers with a final StructuredOutput call, sent on that run only', async () => {
    const lookup = defineTool({ name: 'lookup', description: 'Looks up.', inputSchema: z.object({ q: z.string() }), readOnly: true, execute: () => 'facts' });
    const answer = { title: 'Tide pools', sections: ['Intro', 'Life'], words: 800 };
    const model = scriptedModel([turn('Checking.', toolCall('lookup', { q: 'tide pools' })), turn(toolCall('StructuredOutput', answer, 'toolu_out_1')), 'Anything else?']);
    const agent = createAgent({ model, tools: [lookup] });
    const result = await agent.run('Outline it.', { outputSchema: Outline }).result;
    expect(result.status).toBe('completed');
    expect(result.output).toEqual(answer);
    expect(result.outputAttempts).toBe(1);
    const sent = model.requests.map((request) => request.request.tools.map((tool) => tool.name));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[0]).toContain('lookup');
    expect(sent[0]!.at(-1)).toBe('StructuredOutput');
    // Same array both turns (the prefix of the run does not move), and the schema is the tool's input schema.
    expect(model.requests[0]!.request.tools).toBe(model.requests[1]!.request.tools);
    const tool = model.requests[0]!.request.tools.at(-1) as { input_schema: Record<string, unknown> };
    expect(Object.keys(tool.input_schema.properties as object)).toEqual(['title', 'sections', 'words']);
    expect(lastUserText(model.requests[0]!.messages)).toMatch(/calling the StructuredOutput tool/);
    // The call is answered in the history, which the API accepts; the next run has no such tool.
    const results = agent.messages.at(-1)!.content as Array<{ type: string; tool_use_id?: string; is_error?: boolean }>;
    expect(results.find((block) => block.tool_use_id === 'toolu_out_1')).toMatchObject({ type: 'tool_result' });
    await agent.run('Thanks.').result;
    expect(model.requests.at(-1)!.request.tools.map((entry) => entry.name)).not.toContain('StructuredOutput');
  });

  it('sends an invalid StructuredOutput input back as the call\'s error, and fails after the retries', async () => {
    const bad = { title: 'Tide pools', sections: [], words: 1.5 };
    const good = { title: 'Tide pools', sections: ['Intro'], words: 10 };
    const model = scriptedModel([turn(toolCall('StructuredOutput', bad, 'toolu_bad')), turn(toolCall('StructuredOutput', good, 'toolu_good'))]);
    const result = await createAgent({ model }).run('Outline it.', { outputSchema: Outline }).result;
    expect(result).toMatchObject({ status: 'completed', output: good, outputAttempts: 2 });
    const retry = JSON.stringify(model.requests[1]!.messages.at(-1));
    expect(retry).toContain('toolu_bad');
    expect(retry).toMatch(/sections/);
    expect(retry).toMatch(/Call StructuredOutput again/);

    const failing = scriptedModel([turn(toolCall('StructuredOutput', bad)), turn(toolCall('StructuredOutput', bad))]);
    const failed = await createAgent({ model: failing }).run('Outline it.', { outputSchema: Outline }).result;
    expect(failed.status).toBe('error');
    expect(StructuredOutputError.isInstance(failed.error)).toBe(true);
    expect(failed.error).toMatchObject({ attempts: 2 });
  });

  it('refuses StructuredOutput beside other calls, wraps a non-object schema, and still takes a JSON answer in text', async () => {
    const lookup = defineTool({ name: 'lookup', description: 'Looks up.', inputSchema: z.object({ q: z.string() }), readOnly: true, execute: () => 'facts' });
    const mixed = scriptedModel([turn(toolCall('lookup', { q: 'x' }), toolCall('StructuredOutput', { items: ['a'] }, 'toolu_mixed')), turn(toolCall('StructuredOutput', { output: ['a', 'b'] }))]);
    const list = z.array(z.string());
    const result = await createAgent({ model: mixed, tools: [lookup] }).run('List.', { outputSchema: list }).result;
    expect(result.output).toEqual(['a', 'b']);
    expect(JSON.stringify(mixed.requests[1]!.messages.at(-1))).toMatch(/on its own/);
    const wrapper = mixed.requests[0]!.request.tools.at(-1) as unknown as { input_schema: { required: string[] } };
    expect(wrapper.input_schema.required).toEqual(['output']);

    const text = await createAgent({ model: scriptedModel([valid]) }).run('Outline it.', { outputSchema: Outline }).result;
    expect(text.output?.title).toBe('Tide pools');
    const reminded = scriptedModel(['Sure, here you go: a nice outline.', turn(toolCall('StructuredOutput', JSON.parse(valid)))]);
    expect((await createAgent({ model: reminded }).run('Outline it.', { outputSchema: Outline }).result).status).toBe('completed');
    expect(lastUserText(reminded.requests[1]!.messages)).toMatch(/must be given by calling the StructuredOutput tool/);
  });

  it('counts a StructuredOutput call beside other calls as an invalid answer: a model that does it every turn ends with StructuredOutputError after outputRetries', async () => {
    const ran: string[] = [];
    const lookup = defineTool({ name: 'lookup', description: 'Looks up.', inputSchema: z.object({ q: z.string() }), readOnly: true, execute: ({ input }) => (ran.push(input.q), 'facts') });
    const answer = JSON.parse(valid);
    const mixedTurn = (index: number) => turn(toolCall('lookup', { q: `q${index}` }, `toolu_lookup_${index}`), toolCall('StructuredOutput', answer, `toolu_answer_${index}`));
    const model = scriptedModel(Array.from({ length: 10 }, (_, index) => mixedTurn(index)));
    const agent = createAgent({ model, tools: [lookup], maxTurns: 10 });
    const result = await agent.run('Outline it.', { outputSchema: Outline, outputRetries: 1 }).result;
    expect(result.status).toBe('error');
    expect(StructuredOutputError.isInstance(result.error)).toBe(true);
    expect(result.error).toMatchObject({ attempts: 2 });
    expect(result.error!.message).toMatch(/on its own/);
    expect(result.outputAttempts).toBe(2);
    expect(model.requests).toHaveLength(2);
    // The first turn's lookup ran (the model was asked again); the last turn's did not: the run ended.
    expect(ran).toEqual(['q0']);
    const results = (agent.messages.at(-1)!.content as Array<{ type: string; tool_use_id?: string; is_error?: boolean }>).filter((block) => block.type === 'tool_result');
    expect(results.map((block) => [block.tool_use_id, block.is_error])).toEqual([
      ['toolu_lookup_1', true],
      ['toolu_answer_1', true],
    ]);
    expect(validateMessagesRequest([...agent.messages, { role: 'assistant', content: [{ type: 'text', text: 'x' }] }])).toBeUndefined();

    // outputRetries: 0 ends on the first such answer.
    const once = scriptedModel([mixedTurn(0), mixedTurn(1)]);
    const failed = await createAgent({ model: once, tools: [lookup] }).run('Outline it.', { outputSchema: Outline, outputRetries: 0 }).result;
    expect(failed.status).toBe('error');
    expect(StructuredOutputError.isInstance(failed.error)).toBe(true);
    expect(once.requests).toHaveLength(1);
  });

  it('refuses a tool of its own named StructuredOutput in tool mode, and a bad outputMode', async () => {
    const impostor = defineTool({ name: 'StructuredOutput', description: 'Mine.', inputSchema: z.object({}), execute: () => 'x' });
    const result = await createAgent({ model: scriptedModel([valid]), tools: [impostor] }).run('x', { outputSchema: Outline }).result;
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/has a tool named StructuredOutput.*outputMode: "text"/);
    expect((await createAgent({ model: scriptedModel([valid]), tools: [impostor] }).run('x', { outputSchema: Outline, outputMode: 'text' }).result).status).toBe('completed');
    // A deferred one too (with the client-side ToolSearch it is not in the request's list, yet the model may find and call it).
    const deferred = await createAgent({ model: scriptedModel([valid]), tools: [deferTool(impostor), defineTool({ name: 'other', description: 'O.', inputSchema: z.object({}), execute: () => 'o' })] }).run('x', { outputSchema: Outline }).result;
    expect(deferred.status).toBe('error');
    expect(deferred.error?.message).toMatch(/has a tool named StructuredOutput.*outputMode: "text"/);
    expect(() => createAgent({ model: scriptedModel([]) }).run('x', { outputSchema: Outline, outputMode: 'json' as never })).toThrow(/`outputMode` must be one of "native", "tool", "text"/);
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
      const model = anthropicModel({ model: 'claude-sonnet-4-6', baseURL: server.url, apiKey: 'test' });
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

  it('on a model with native support, an explicit "text" or "tool" is honoured: no format on the request, the session\'s cached prefix kept', async () => {
    const text = scriptedModel([valid], { structuredOutput: true });
    const byText = await createAgent({ model: text }).run('Outline it.', { outputSchema: Outline, outputMode: 'text' }).result;
    expect(byText.output).toEqual(JSON.parse(valid));
    expect(text.requests[0]!.request.outputFormat).toBeUndefined();
    expect(lastUserText(text.requests[0]!.messages)).toContain('JSON Schema');
    const tool = scriptedModel([turn(toolCall('StructuredOutput', JSON.parse(valid)))], { structuredOutput: true });
    const byTool = await createAgent({ model: tool }).run('Outline it.', { outputSchema: Outline, outputMode: 'tool' }).result;
    expect(byTool.output).toEqual(JSON.parse(valid));
    expect(tool.requests[0]!.request.outputFormat).toBeUndefined();
    expect(tool.requests[0]!.request.tools.map((definition) => definition.name)).toContain('StructuredOutput');
    // Left out, or "native": the model's own.
    for (const outputMode of [undefined, 'native'] as const) {
      const native = scriptedModel([valid], { structuredOutput: true });
      const result = await createAgent({ model: native }).run('Outline it.', { outputSchema: Outline, ...(outputMode ? { outputMode } : {}) }).result;
      expect(result.output).toEqual(JSON.parse(valid));
      expect(native.requests[0]!.request.outputFormat?.type).toBe('json_schema');
      expect(lastUserText(native.requests[0]!.messages)).not.toContain('JSON Schema');
    }
  });

  it('refuses outputMode "native" where the model has no native structured output, or the schema no JSON Schema, naming the cure', () => {
    const plain = createAgent({ model: scriptedModel([], { modelId: 'plain-model' }) });
    expect(() => plain.run('x', { outputSchema: Outline, outputMode: 'native' })).toThrow(ConfigurationError);
    expect(() => plain.run('x', { outputSchema: Outline, outputMode: 'native' })).toThrow(/"plain-model" has none.*leave `outputMode` out.*"tool" or "text"/);
    const validatorOnly = { '~standard': { version: 1, vendor: 'custom', validate: (value: unknown) => ({ value }) } };
    const native = createAgent({ model: scriptedModel([], { structuredOutput: true }) });
    expect(() => native.run('x', { outputSchema: validatorOnly as never, outputMode: 'native' })).toThrow(/needs an `outputSchema` with a JSON Schema.*pass "text"/);
  });

  it('refuses a schema that is not one, and a bad outputRetries, naming them', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    expect(() => agent.run('x', { outputSchema: 'object' as never })).toThrow(ConfigurationError);
    expect(() => agent.run('x', { outputSchema: Outline, outputRetries: -1 })).toThrow(/outputRetries/);
  });
});

describe('typed output across an approval', () => {
  const Answer = z.object({ saved: z.boolean() });
  const save = () => defineTool({ name: 'save', description: 'Saves.', inputSchema: z.object({}), kind: 'edit', execute: () => 'saved' });

  it('the run that resolves the approval still asks for, and returns, the typed answer', async () => {
    const model = scriptedModel([turn(toolCall('save', {})), turn(toolCall('StructuredOutput', { saved: true }))]);
    const agent = createAgent({ model, tools: [save()] });
    const parked = await agent.run('Save, then say so.', { outputSchema: Answer }).result;
    expect(parked.status).toBe('awaiting-approval');
    const done = await agent.resolveApproval(parked.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(done).toMatchObject({ status: 'completed', output: { saved: true } });
    expect(model.requests[1]!.request.tools.map((tool) => tool.name)).toContain('StructuredOutput');
    // The next run asked for nothing typed: no output tool, no output.
    const plain = await createAgent({ model: scriptedModel(['hi']) }).run('hello').result;
    expect(plain.output).toBeUndefined();
  });

  it('in another process the host passes outputSchema to resolveApproval again', async () => {
    const first = createAgent({ model: scriptedModel([turn(toolCall('save', {}))]), tools: [save()] });
    const parked = await first.run('Save, then say so.', { outputSchema: Answer }).result;
    const resumed = createAgent({ model: scriptedModel([JSON.stringify({ saved: true })]), tools: [save()], resume: JSON.parse(JSON.stringify(first.snapshot())) });
    const done = await resumed.resolveApproval(parked.pendingApprovals[0]!.id, { behavior: 'allow' }, { outputSchema: Answer }).result;
    expect(done).toMatchObject({ status: 'completed', output: { saved: true } });
    const untyped = createAgent({ model: scriptedModel(['Saved.']), tools: [save()], resume: JSON.parse(JSON.stringify(first.snapshot())) });
    expect((await untyped.resolveApproval(parked.pendingApprovals[0]!.id, { behavior: 'allow' }).result).output).toBeUndefined();
  });
});

describe('typed output on an agent with no tools of its own', () => {
  const Answer = z.object({ title: z.string() });

  it('answers in text, so the history never holds tool blocks that a later request without tools could not be sent with (the real API refuses them)', async () => {
    const server = await startMessagesServer({ responses: [{ content: [{ type: 'text', text: '{"title":"Tide pools"}' }] }, { content: [{ type: 'text', text: 'You are welcome.' }] }] as never });
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-6', baseURL: server.url, apiKey: 'test', structuredOutput: false, maxRetries: 0 });
      const agent = createAgent({ model, todoWrite: false, exitPlanMode: false });
      const typed = await agent.run('Title it.', { outputSchema: Answer }).result;
      expect(typed).toMatchObject({ status: 'completed', output: { title: 'Tide pools' } });
      const first = server.requests[0] as { tools?: unknown[]; messages: unknown[] };
      expect(first.tools ?? []).toEqual([]);
      expect(JSON.stringify(first.messages)).toContain('JSON Schema');
      const plain = await agent.run('Thanks.').result;
      expect(plain.error?.message).toBeUndefined();
      expect(plain.status).toBe('completed');
      expect(JSON.stringify(agent.messages)).not.toMatch(/tool_use|tool_result/);
    } finally {
      await server.close();
    }
  });

  it('with a tool of its own it still answers with StructuredOutput, and the next run is accepted', async () => {
    const lookup = defineTool({ name: 'lookup', description: 'Looks up.', inputSchema: z.object({ q: z.string() }), readOnly: true, execute: () => 'facts' });
    const server = await startMessagesServer({
      responses: [{ content: [{ type: 'tool_use', id: 'toolu_answer', name: 'StructuredOutput', input: { title: 'Tide pools' } }], stop_reason: 'tool_use' }, { content: [{ type: 'text', text: 'You are welcome.' }] }] as never,
    });
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-6', baseURL: server.url, apiKey: 'test', structuredOutput: false, maxRetries: 0 });
      const agent = createAgent({ model, tools: [lookup], todoWrite: false, exitPlanMode: false });
      expect(await agent.run('Title it.', { outputSchema: Answer }).result).toMatchObject({ status: 'completed', output: { title: 'Tide pools' } });
      expect(await agent.run('Thanks.').result).toMatchObject({ status: 'completed' });
    } finally {
      await server.close();
    }
  });
});

describe('typed output when the process dies mid-answer (killed at every entry, resumed with continue())', () => {
  const Answer = z.object({ title: z.string() });
  const lookup = () => defineTool({ name: 'lookup', description: 'Looks up.', inputSchema: z.object({}), readOnly: true, execute: () => 'facts' });

  it('takes the StructuredOutput answer the model gave before the process died, never telling it the tool does not exist nor asking again', async () => {
    let cut = 2;
    let taken = 0;
    for (; cut < 60; cut++) {
      const inner = memorySessionStore();
      // Cut at every entry: the answer stored without its result is a state a torn write leaves.
      const dying = dyingStore(inner, cut, { unit: 'entry' });
      const first = createAgent({ model: scriptedModel([turn(toolCall('lookup', {}, 'toolu_look')), turn(toolCall('StructuredOutput', { title: 'First' }, 'toolu_answer'))]), tools: [lookup()], store: dying.store });
      await first.run('Title it.', { outputSchema: Answer }).result;
      await first.close().catch(() => undefined);
      if (dying.entries() < cut) break;
      const where = `killed at entry ${cut}`;
      const model = scriptedModel([turn(toolCall('StructuredOutput', { title: 'Second' }, 'toolu_again'))]);
      const resumed = createAgent({ model, tools: [lookup()], store: inner, resume: first.sessionId });
      await resumed.ready;
      const given = JSON.stringify(resumed.messages).includes('toolu_answer');
      const result = await resumed.continue({ outputSchema: Answer }).result;
      expect(result.status, where).toBe('completed');
      for (const request of model.requests) {
        expect(validateMessagesRequest(request.messages), where).toBeUndefined();
        expect(JSON.stringify(request.messages), where).not.toContain('No tool named');
      }
      if (given) {
        // The model's answer was stored: it is the answer, without another model call.
        taken++;
        expect(result.output, where).toEqual({ title: 'First' });
        expect(model.requests, where).toHaveLength(0);
        expect(validateMessagesRequest(resumed.messages), where).toBeUndefined();
      }
      await resumed.close();
    }
    // Every entry of the whole run was a cut point.
    const whole = memorySessionStore();
    const uncut = createAgent({ model: scriptedModel([turn(toolCall('lookup', {}, 'toolu_look')), turn(toolCall('StructuredOutput', { title: 'First' }, 'toolu_answer'))]), tools: [lookup()], store: whole });
    await uncut.run('Title it.', { outputSchema: Answer }).result;
    await uncut.close();
    let total = 0;
    for await (const _entry of whole.load(uncut.sessionId)) total++;
    expect(total).toBeGreaterThan(10);
    expect(cut).toBe(total + 1);
    expect(taken).toBeGreaterThanOrEqual(2);
  });

  it('checks a stored answer like a fresh one: an invalid one is sent back and counted, a valid one after it is taken', async () => {
    // The session as a process left it between storing the model's invalid answer and answering it.
    const first = createAgent({ model: scriptedModel([turn(toolCall('StructuredOutput', { title: 7 }, 'toolu_bad'))]) });
    let left: unknown;
    first.on('tool-call', () => {
      left ??= JSON.parse(JSON.stringify(first.snapshot()));
    });
    await first.run('Title it.', { outputSchema: Answer, outputRetries: 0 }).result;
    const model = scriptedModel([turn(toolCall('StructuredOutput', { title: 'Fixed' }, 'toolu_fixed'))]);
    const resumed = createAgent({ model, resume: left as never });
    expect(resumed.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ id: 'toolu_bad' }] });
    const result = await resumed.continue({ outputSchema: Answer }).result;
    expect(result).toMatchObject({ status: 'completed', output: { title: 'Fixed' }, outputAttempts: 2 });
    const sentBack = JSON.stringify(model.requests[0]!.messages.at(-1));
    expect(sentBack).toMatch(/toolu_bad.*title.*Call StructuredOutput again/s);
    expect(sentBack).not.toContain('No tool named');
    // Out of retries, the stored invalid answer ends the run with StructuredOutputError.
    const failing = createAgent({ model: scriptedModel([]), resume: left as never });
    const failed = await failing.continue({ outputSchema: Answer, outputRetries: 0 }).result;
    expect(failed.status).toBe('error');
    expect(StructuredOutputError.isInstance(failed.error)).toBe(true);
  });
});

describe('typed output with a JSON Schema the Messages API refuses as an input schema', () => {
  it('an object schema with oneOf, anyOf or allOf at the top level is wrapped as { output }, so the request is accepted', async () => {
    const Either = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, anyOf: [{ required: ['a'] }, { required: ['b'] }] } as const;
    const server = await startMessagesServer({ responses: [{ content: [{ type: 'tool_use', id: 'toolu_either', name: 'StructuredOutput', input: { output: { b: 'yes' } } }], stop_reason: 'tool_use' }] as never });
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-6', baseURL: server.url, apiKey: 'test', structuredOutput: false, maxRetries: 0 });
      const result = await createAgent({ model }).run('Pick.', { outputSchema: Either }).result;
      expect(result.error?.message).toBeUndefined();
      expect(result).toMatchObject({ status: 'completed', output: { b: 'yes' } });
      const tool = (server.requests[0] as unknown as { tools: Array<{ name: string; input_schema: Record<string, unknown> }> }).tools.at(-1)!;
      expect(tool.name).toBe('StructuredOutput');
      expect(tool.input_schema).toMatchObject({ type: 'object', required: ['output'], properties: { output: Either } });
    } finally {
      await server.close();
    }
  });
});
