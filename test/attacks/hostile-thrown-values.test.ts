// Attack class: a host or a model throws something that is not an Error and cannot even be turned
// into a string (`Object.create(null)`, an object whose toString throws), or returns a value JSON
// cannot write (a bigint). Describing it for a message must not throw again: the run's `result`
// still resolves, and a tool, a check or a hook that throws fails or denies only its own call.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, type ContentBlock, type Message, type Model } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const hostile: Array<[string, () => unknown]> = [
  ['Object.create(null)', () => Object.create(null)],
  [
    'an object whose toString throws',
    () => ({
      toString() {
        throw new Error('no string for you');
      },
    }),
  ],
];

function toolResult(messages: readonly Message[], toolUseId: string): { content: string; isError: boolean } | undefined {
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content as ContentBlock[]) {
      if (block.type === 'tool_result' && block.tool_use_id === toolUseId) {
        const content = typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
        return { content, isError: block.is_error === true };
      }
    }
  }
  return undefined;
}

type ToolOptions = Partial<Parameters<typeof defineTool>[0]>;

function probe(change: ToolOptions = {}) {
  return defineTool({ name: 'probe', description: 'Probes.', inputSchema: z.object({}), readOnly: true, execute: () => 'probed', ...change } as Parameters<typeof defineTool>[0]);
}

async function runOneCall(options: { tool: ReturnType<typeof probe>; agent?: Record<string, unknown> }) {
  const model = scriptedModel([turn(toolCall('probe', {}, 'toolu_probe')), 'done']);
  const agent = createAgent({ model, tools: [options.tool], canUseTool: () => ({ behavior: 'allow' }), ...options.agent });
  const result = await agent.run('go').result;
  return { result, model, seen: toolResult(model.requests[1]?.messages ?? [], 'toolu_probe') };
}

describe.each(hostile)('attack: a host throws %s', (_name, make) => {
  it('from Model.stream: the run ends `error` with an Error, and `result` resolves', async () => {
    const model: Model = {
      specificationVersion: 'v1',
      provider: 'hostile',
      modelId: 'hostile',
      // eslint-disable-next-line require-yield
      async *stream() {
        throw make();
      },
    };
    const result = await createAgent({ model }).run('go').result;
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(Error);
  });

  it.each<[string, ToolOptions]>([
    ['execute', { execute: () => Promise.reject(make()) }],
    ['validateInput', { validateInput: () => { throw make(); } }],
    ['checkPermissions', { checkPermissions: () => { throw make(); } }],
  ])('from a tool\'s %s: only that call fails, the model sees an error result', async (_hook, change) => {
    const { result, seen } = await runOneCall({ tool: probe(change) });
    expect(result.status).toBe('completed');
    expect(seen?.isError).toBe(true);
  });

  it('from a tool\'s display: the approval shows the raw input, the call is asked and runs', async () => {
    let asked = 0;
    const { result, seen } = await runOneCall({
      tool: probe({ readOnly: false, display: () => { throw make(); } }),
      agent: { canUseTool: () => ((asked++), { behavior: 'allow' }) },
    });
    expect(result.status).toBe('completed');
    expect(asked).toBe(1);
    expect(seen).toEqual({ content: 'probed', isError: false });
  });

  it('from canUseTool: that call is denied, the run completes', async () => {
    const { result, seen } = await runOneCall({
      tool: probe({ readOnly: false }),
      agent: {
        canUseTool: () => {
          throw make();
        },
      },
    });
    expect(result.status).toBe('completed');
    expect(seen?.isError).toBe(true);
  });

  it('from a PreToolUse hook: that call is denied, the run completes', async () => {
    let ran = false;
    const { result, seen } = await runOneCall({
      tool: probe({ execute: () => ((ran = true), 'probed') }),
      agent: {
        hooks: {
          PreToolUse: [
            {
              hook: () => {
                throw make();
              },
            },
          ],
        },
      },
    });
    expect(result.status).toBe('completed');
    expect(ran).toBe(false);
    expect(seen?.isError).toBe(true);
  });

  it('from autoMode.classify: the question goes on to canUseTool, the run completes', async () => {
    const { result, seen } = await runOneCall({
      tool: probe({ readOnly: false }),
      agent: {
        permissionMode: 'auto',
        autoMode: {
          classify: () => {
            throw make();
          },
        },
      },
    });
    expect(result.status).toBe('completed');
    expect(seen).toEqual({ content: 'probed', isError: false });
  });

  it('from an event listener: the others and the run go on', async () => {
    const model = scriptedModel([turn(toolCall('probe', {}, 'toolu_probe')), 'done']);
    const agent = createAgent({ model, tools: [probe()], canUseTool: () => ({ behavior: 'allow' }) });
    const errors: unknown[] = [];
    let later = 0;
    agent.on('tool-call', () => {
      throw make();
    });
    agent.on('tool-call', () => void later++);
    agent.on('error', ({ error }) => void errors.push(error));
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(later).toBe(1);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((error) => error instanceof Error)).toBe(true);
  });
});

describe('attack: canUseTool returns a value JSON cannot write', () => {
  it.each<[string, () => unknown]>([
    ['a bigint', () => 1n],
    ['a cyclic object', () => {
      const cyclic: Record<string, unknown> = { behavior: 'maybe' };
      cyclic.self = cyclic;
      return cyclic;
    }],
  ])('%s: that call is denied, the run completes', async (_name, answer) => {
    const { result, seen } = await runOneCall({ tool: probe({ readOnly: false }), agent: { canUseTool: answer } });
    expect(result.status).toBe('completed');
    expect(seen?.isError).toBe(true);
  });
});

describe('attack: a tool\'s checkPermissions returns a value JSON cannot write', () => {
  it('a bigint: that call fails, the run completes', async () => {
    const { result, seen } = await runOneCall({ tool: probe({ checkPermissions: () => 1n as never }) });
    expect(result.status).toBe('completed');
    expect(seen?.isError).toBe(true);
  });
});

describe('attack: a PreToolUse hook returns a decision JSON cannot write', () => {
  it('a bigint: that call is denied as a broken hook, the run completes', async () => {
    let ran = false;
    const { result, seen } = await runOneCall({
      tool: probe({ execute: () => ((ran = true), 'probed') }),
      agent: { hooks: { PreToolUse: [{ hook: () => ({ decision: 1n }) }] } },
    });
    expect(result.status).toBe('completed');
    expect(ran).toBe(false);
    expect(seen?.isError).toBe(true);
  });
});

describe('attack: canUseTool allows with updatedPermissions no message can show as text', () => {
  it.each<[string, unknown]>([
    ['a bigint', 1n],
    ['a setMode to Object.create(null)', [{ type: 'setMode', mode: Object.create(null), destination: 'session' }]],
    ['rules as a bigint', [{ type: 'addRules', behavior: 'allow', rules: 1n, destination: 'session' }]],
  ])('%s: the run ends with a ConfigurationError naming it', async (_name, updatedPermissions) => {
    const { result } = await runOneCall({ tool: probe({ readOnly: false }), agent: { canUseTool: () => ({ behavior: 'allow', updatedPermissions }) } });
    expect(result.status).toBe('error');
    expect(ConfigurationError.isInstance(result.error)).toBe(true);
  });
});
