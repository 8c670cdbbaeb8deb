import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, toolOutput, type ToolUseBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

/** A tool of each schema kind; `ran` records the inputs it ran with. */
function sayTool(kind: 'zod' | 'json schema', ran: unknown[]) {
  const inputSchema =
    kind === 'zod'
      ? z.object({ text: z.string(), nested: z.object({ value: z.string() }) })
      : { type: 'object', properties: { text: { type: 'string' }, nested: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } }, required: ['text', 'nested'] };
  return defineTool({
    name: 'say',
    description: 'Says.',
    inputSchema: inputSchema as never,
    readOnly: true,
    execute: ({ input }: { input: unknown }) => (ran.push(structuredClone(input)), 'said'),
  });
}

/** Changes a tool input in place into one its schema rejects, and returns nothing. */
const tamper = (toolInput: unknown) => {
  const input = toolInput as { text: unknown; nested: { value: unknown } };
  input.text = 42;
  input.nested.value = 99;
};

const ORIGINAL = { text: 'hi', nested: { value: 'a' } };

describe('a host callback that changes the tool input in place', () => {
  for (const kind of ['zod', 'json schema'] as const) {
    it(`PreToolUse (${kind}): the call runs with the validated input, the history keeps the model's call`, async () => {
      const ran: unknown[] = [];
      const model = scriptedModel([turn(toolCall('say', structuredClone(ORIGINAL), 't1')), 'done']);
      const agent = createAgent({ model, tools: [sayTool(kind, ran)], hooks: { PreToolUse: [{ hook: (input) => (tamper(input.toolInput), {}) }] } });
      expect((await agent.run('go').result).status).toBe('completed');
      expect(ran).toEqual([ORIGINAL]);
      expect((agent.messages[1]!.content as ToolUseBlock[])[0]!.input).toEqual(ORIGINAL);
      expect((model.requests[1]!.messages[1]!.content as ToolUseBlock[])[0]!.input).toEqual(ORIGINAL);
    });

    it(`PermissionRequest and canUseTool (${kind}): an allow without updatedInput runs the input that was asked about`, async () => {
      const ran: unknown[] = [];
      const tool = sayTool(kind, ran);
      const model = scriptedModel([turn(toolCall('say', structuredClone(ORIGINAL), 't1')), 'done']);
      const agent = createAgent({
        model,
        tools: [tool],
        rules: { ask: ['say'] },
        hooks: { PermissionRequest: [{ hook: (input) => (tamper(input.toolInput), {}) }] },
        canUseTool: (_name, input) => (tamper(input), { behavior: 'allow' }),
      });
      expect((await agent.run('go').result).status).toBe('completed');
      expect(ran).toEqual([ORIGINAL]);
      expect((agent.messages[1]!.content as ToolUseBlock[])[0]!.input).toEqual(ORIGINAL);
    });

    it(`PostToolUse (${kind}): the history keeps the model's call`, async () => {
      const ran: unknown[] = [];
      const model = scriptedModel([turn(toolCall('say', structuredClone(ORIGINAL), 't1')), 'done']);
      const agent = createAgent({ model, tools: [sayTool(kind, ran)], hooks: { PostToolUse: [{ hook: (input) => (tamper(input.toolInput), {}) }] } });
      expect((await agent.run('go').result).status).toBe('completed');
      expect((model.requests[1]!.messages[1]!.content as ToolUseBlock[])[0]!.input).toEqual(ORIGINAL);
    });
  }
});

describe('a PostToolUse hook that changes the tool response in place', () => {
  for (const shape of ['blocks', 'toolOutput'] as const) {
    it(`(${shape}) does not change the result the model gets: no blank text block reaches the API`, async () => {
      const blocks = [{ type: 'text' as const, text: 'the answer' }];
      const tool = defineTool({ name: 'blocks', description: 'Blocks.', inputSchema: z.object({}), readOnly: true, execute: () => (shape === 'blocks' ? blocks : toolOutput(blocks)) });
      const model = scriptedModel([turn(toolCall('blocks', {}, 't1')), 'done']);
      const blank = (response: unknown) => {
        const returned = (Array.isArray(response) ? response : (response as { content: Array<{ text: string }> }).content) as Array<{ text: string }>;
        returned[0]!.text = '';
      };
      const agent = createAgent({ model, tools: [tool], hooks: { PostToolUse: [{ hook: (input) => (blank(input.toolResponse), {}) }] } });
      expect((await agent.run('go').result).status).toBe('completed');
      expect(model.requests[1]!.messages[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'the answer' }] }]);
    });
  }
});

describe("a host that keeps its updatedInput object and changes it afterwards", () => {
  const EDIT = { text: 'edited', nested: { value: 'b' } };
  /** A tool that changes the host's object (as a host's later code would) before it reads its own input. */
  function editedTool(kind: 'zod' | 'json schema', ran: unknown[], held: () => { text: unknown; nested: { value: unknown } } | undefined) {
    const inner = sayTool(kind, ran);
    return {
      ...inner,
      execute: (args: { input: unknown }) => {
        const kept = held();
        if (kept) tamper(kept);
        return (inner.execute as (args: { input: unknown }) => unknown)(args);
      },
    } as typeof inner;
  }

  for (const kind of ['zod', 'json schema'] as const) {
    it(`PreToolUse and canUseTool (${kind}): the call runs the edit as it was given`, async () => {
      for (const where of ['PreToolUse', 'canUseTool'] as const) {
        const ran: unknown[] = [];
        let edit: { text: unknown; nested: { value: unknown } } | undefined;
        const model = scriptedModel([turn(toolCall('say', structuredClone(ORIGINAL), 't1')), 'done']);
        const agent = createAgent({
          model,
          tools: [editedTool(kind, ran, () => edit)],
          ...(where === 'PreToolUse'
            ? { hooks: { PreToolUse: [{ hook: () => ({ decision: 'allow' as const, updatedInput: (edit = structuredClone(EDIT)) }) }] } }
            : { rules: { ask: ['say'] }, canUseTool: () => ({ behavior: 'allow' as const, updatedInput: (edit = structuredClone(EDIT)) }) }),
        });
        expect((await agent.run('go').result).status).toBe('completed');
        expect(ran, where).toEqual([EDIT]);
      }
    });

    it(`resolveApproval (${kind}): the edit runs as given, and the session records it as given`, async () => {
      const ran: unknown[] = [];
      let edit: { text: unknown; nested: { value: unknown } } | undefined;
      const model = scriptedModel([turn(toolCall('say', structuredClone(ORIGINAL), 't1')), 'done']);
      const store = memorySessionStore();
      const agent = createAgent({ model, store, tools: [editedTool(kind, ran, () => edit)], rules: { ask: ['say'] }, canUseTool: () => ({ behavior: 'defer' as const }) });
      expect((await agent.run('go').result).status).toBe('awaiting-approval');
      const [pending] = agent.pendingApprovals;
      edit = structuredClone(EDIT);
      expect((await agent.resolveApproval(pending!.id, { behavior: 'allow', updatedInput: edit }).result).status).toBe('completed');
      expect(ran).toEqual([EDIT]);
      tamper(edit);
      const entries: unknown[] = [];
      for await (const entry of store.load(agent.sessionId)) entries.push(entry);
      const recorded = JSON.stringify(entries);
      expect(recorded).toContain('"text":"edited"');
      expect(recorded).not.toContain('"text":42');
    });
  }
});

describe('a host callback that keeps its updatedInput and changes it later', () => {
  const EDITED = { text: 'edited', nested: { value: 'b' } };
  /** Changes a kept input in place into one the schema rejects. */
  const spoil = (kept: { text: unknown; nested: { value: unknown } }) => {
    kept.text = 42;
    kept.nested.value = 99;
  };
  const twoCalls = () => scriptedModel([turn(toolCall('say', structuredClone(ORIGINAL), 't1'), toolCall('say', structuredClone(ORIGINAL), 't2')), 'done']);

  for (const kind of ['zod', 'json schema'] as const) {
    // Every call is decided before any runs: the callback for t2 changes what it gave for t1.
    it(`canUseTool (${kind}): the call runs with the input as it was given, the recorded decision keeps it`, async () => {
      const ran: unknown[] = [];
      const kept = structuredClone(EDITED);
      const decided: unknown[] = [];
      const agent = createAgent({
        model: twoCalls(),
        tools: [sayTool(kind, ran)],
        rules: { ask: ['say'] },
        canUseTool: (_name, _input, context) => {
          if (context.toolUseId === 't1') return { behavior: 'allow', updatedInput: kept };
          spoil(kept);
          return { behavior: 'allow' };
        },
      });
      agent.on('permission-decision', (event) => decided.push(structuredClone(event.input)));
      expect((await agent.run('go').result).status).toBe('completed');
      expect(ran).toEqual([EDITED, ORIGINAL]);
      expect(decided[0]).toEqual(EDITED);
    });

    it(`PreToolUse (${kind}): the call runs with the rewrite as it was given`, async () => {
      const ran: unknown[] = [];
      const kept = structuredClone(EDITED);
      const agent = createAgent({
        model: twoCalls(),
        tools: [sayTool(kind, ran)],
        hooks: {
          PreToolUse: [
            {
              hook: (input) => {
                if (input.toolUseId === 't1') return { updatedInput: kept };
                spoil(kept);
                return {};
              },
            },
          ],
        },
      });
      expect((await agent.run('go').result).status).toBe('completed');
      expect(ran).toEqual([EDITED, ORIGINAL]);
    });

    it(`PermissionRequest (${kind}): the call runs with the rewrite as it was given`, async () => {
      const ran: unknown[] = [];
      const kept = structuredClone(EDITED);
      const agent = createAgent({
        model: twoCalls(),
        tools: [sayTool(kind, ran)],
        rules: { ask: ['say'] },
        hooks: {
          PermissionRequest: [
            {
              hook: (input) => {
                if (input.toolUseId === 't1') return { decision: 'allow', updatedInput: kept };
                spoil(kept);
                return { decision: 'allow' };
              },
            },
          ],
        },
      });
      expect((await agent.run('go').result).status).toBe('completed');
      expect(ran).toEqual([EDITED, ORIGINAL]);
    });

    it(`resolveApproval (${kind}): the call runs with the edit as it was given, also when the host changes it while the tool waits to run`, async () => {
      const ran: unknown[] = [];
      const kept = structuredClone(EDITED);
      const agent = createAgent({ model: twoCalls(), tools: [sayTool(kind, ran)], rules: { ask: ['say'] } });
      const first = await agent.run('go').result;
      expect(first.status).toBe('awaiting-approval');
      const [one, two] = first.pendingApprovals;
      const paused = await agent.resolveApproval(one!.id, { behavior: 'allow', updatedInput: kept }).result;
      expect(paused.status).toBe('awaiting-approval');
      spoil(kept);
      expect((await agent.resolveApproval(two!.id, { behavior: 'allow' }).result).status).toBe('completed');
      expect(ran).toEqual([EDITED, ORIGINAL]);
    });
  }
});
