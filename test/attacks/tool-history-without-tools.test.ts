// Attack class: a session whose history holds tool calls and results, continued by an agent that
// defines no tools (its own none, `todoWrite: false`, `exitPlanMode: false`): resumed from a
// store, from a snapshot, or forked. The Messages API refuses every request whose history holds a
// `tool_use` or `tool_result` block but that defines no tools, so such a session would be dead
// for good. What must hold: every request such an agent sends (turns, the compaction summary) is
// accepted by the API's own checks, the model still reads what was called and what came back, and
// the stored transcript keeps the blocks as they were (an agent given tools again sees them).
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool, memorySessionStore, type Agent, type Message, type ModelRequest } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequestBody } from 'agent-harness/testing';
import { startMessagesServer } from 'agent-harness/testing/messages-server';
import { toolBlocksAsText } from '../../src/loop/tool-blocks-as-text.js';

const lookup = defineTool({ name: 'lookup', description: 'Looks up an order.', inputSchema: z.object({ id: z.string() }), readOnly: true, execute: ({ input }) => `order ${input.id}: shipped` });
const NO_TOOLS = { todoWrite: false, exitPlanMode: false } as const;

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close().catch(() => undefined)));
});
function track(agent: Agent): Agent {
  agents.push(agent);
  return agent;
}

/** The problem the API's own checks find in a request, as the Anthropic adapter would send it. */
function apiProblem(request: ModelRequest): string | undefined {
  return validateMessagesRequestBody({ model: 'claude-sonnet-4-6', max_tokens: 1024, system: request.system, tools: request.tools, messages: request.messages });
}

/** A session with one tool turn (a call and its result) and a final answer, in `store`. */
async function sessionWithToolTurn(store = memorySessionStore()) {
  const first = track(createAgent({ model: scriptedModel([turn('Looking.', toolCall('lookup', { id: 'A7' }, 'toolu_lookup_1')), 'It shipped.']), tools: [lookup], store }));
  expect((await first.run('Where is order A7?').result).status).toBe('completed');
  return { first, store, stored: structuredClone(first.messages) as Message[] };
}

describe('attack: a history with tool calls continued by an agent with no tools', () => {
  it('resumed from its store: the request is valid, the model reads the call and its result, the transcript keeps the blocks', async () => {
    const { first, store, stored } = await sessionWithToolTurn();
    await first.close();
    const model = scriptedModel(['It shipped on Monday.']);
    const second = track(createAgent({ model, ...NO_TOOLS, store, resume: first.sessionId }));
    const result = await second.run('When?').result;
    expect(result.error?.message).toBeUndefined();
    expect(result.status).toBe('completed');
    const request = model.requests[0]!.request;
    expect(request.tools).toEqual([]);
    expect(apiProblem(request)).toBeUndefined();
    const sent = JSON.stringify(model.requests[0]!.messages);
    expect(sent).not.toMatch(/"tool_use"|"tool_result"/);
    // What was called and what came back are still there for the model to read.
    expect(sent).toContain('lookup');
    expect(sent).toContain('A7');
    expect(sent).toContain('order A7: shipped');
    // The agent's own history and the store keep the blocks as they were.
    expect(second.messages.slice(0, stored.length)).toEqual(stored);
    await second.close();
    const third = track(createAgent({ model: scriptedModel(['Yes.']), tools: [lookup], store, resume: first.sessionId }));
    await third.ready;
    expect(JSON.stringify(third.messages)).toContain('"tool_use"');
  });

  it('run after run: every request is valid and what a fresh writing-out gives, the part written out before reused', async () => {
    const { first, store } = await sessionWithToolTurn();
    await first.close();
    const model = scriptedModel(['One.', 'Two.', 'Three.']);
    const second = track(createAgent({ model, ...NO_TOOLS, store, resume: first.sessionId }));
    for (const [index, prompt] of ['First?', 'Second?', 'Third?'].entries()) {
      expect((await second.run(prompt).result).status).toBe('completed');
      const { request, messages } = model.requests[index]!;
      expect(apiProblem({ ...request, messages })).toBeUndefined();
      // The history the request was made from: everything but the answer that came back.
      expect(messages).toEqual(toolBlocksAsText(second.messages.slice(0, -1)));
    }
    // The call's message was written out once, at the first request, not again at each.
    expect(model.requests[2]!.messages[1]).toBe(model.requests[0]!.messages[1]);
    expect(JSON.stringify(model.requests[2]!.messages[1])).toContain('lookup');
  });

  it('resumed from a snapshot and forked: every request is valid', async () => {
    const { first } = await sessionWithToolTurn();
    const snapshotModel = scriptedModel(['From the snapshot.']);
    const fromSnapshot = track(createAgent({ model: snapshotModel, ...NO_TOOLS, resume: first.snapshot() }));
    expect((await fromSnapshot.run('Again?').result).status).toBe('completed');
    expect(apiProblem(snapshotModel.requests[0]!.request)).toBeUndefined();

    const forkModel = scriptedModel(['From the fork.']);
    const withoutTools = track(createAgent({ model: forkModel, ...NO_TOOLS, resume: first.snapshot() }));
    const fork = track(await withoutTools.fork());
    expect((await fork.run('And the fork?').result).status).toBe('completed');
    expect(apiProblem(forkModel.requests[0]!.request)).toBeUndefined();
  });

  it('compacted: the summary request, which holds the tool turn, is valid too', async () => {
    const store = memorySessionStore();
    const first = track(createAgent({ model: scriptedModel([turn('Looking.', toolCall('lookup', { id: 'A7' }, 'toolu_lookup_1')), 'It shipped.', 'Noted.', 'Sure.', 'Fine.']), tools: [lookup], store }));
    for (const prompt of ['Where is order A7?', 'Thanks.', 'One more thing.', 'Bye.']) expect((await first.run(prompt).result).status).toBe('completed');
    const model = scriptedModel(['Summary: order A7 shipped.', 'Hello again.']);
    // keepTokens 0: everything that can be is summarized, the tool turn included.
    const second = track(createAgent({ model, ...NO_TOOLS, context: { compaction: { keepTokens: 0 } }, resume: first.snapshot() }));
    const compacted = await second.compact();
    expect(compacted.compacted).toBe(true);
    const summaryRequest = model.requests[0]!.request;
    expect(JSON.stringify(summaryRequest.messages)).toContain('order A7: shipped');
    expect(apiProblem(summaryRequest)).toBeUndefined();
    expect((await second.run('Hi.').result).status).toBe('completed');
    expect(apiProblem(model.requests[1]!.request)).toBeUndefined();
  });

  it('through the real SDK client and the loopback Messages server: the resumed run is accepted', async () => {
    const { first, store } = await sessionWithToolTurn();
    await first.close();
    const server = await startMessagesServer({ responses: [{ content: [{ type: 'text', text: 'It shipped on Monday.' }] }] });
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-6', baseURL: server.url, apiKey: 'test', maxRetries: 0 });
      const second = track(createAgent({ model, ...NO_TOOLS, store, resume: first.sessionId }));
      const result = await second.run('When?').result;
      expect(result.error?.message).toBeUndefined();
      expect(result.text).toBe('It shipped on Monday.');
    } finally {
      await server.close();
    }
  });
});
