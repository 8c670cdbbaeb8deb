// Tool state keys are the host's strings: keys that name Object.prototype members are keys like
// any other (an unset `toString` is undefined; a `__proto__` value is stored and comes back).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const seen: Record<string, unknown> = {};
const keeper = defineTool({
  name: 'keep',
  description: 'Keeps values under awkward keys.',
  inputSchema: z.object({}),
  readOnly: true,
  execute: ({ agent }) => {
    for (const key of ['toString', 'constructor', 'hasOwnProperty', '__proto__']) seen[`before:${key}`] = agent.toolState.get(key);
    agent.toolState.set('__proto__', { kept: true });
    agent.toolState.set('constructor', 'mine');
    seen.proto = agent.toolState.get('__proto__');
    seen.ctor = agent.toolState.get('constructor');
    seen.other = agent.toolState.get('kept');
    return 'ok';
  },
});

describe('tool state keys named after Object.prototype members', () => {
  it('read undefined until set, keep what is set, and survive a snapshot and a resume from the store', async () => {
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('keep', {})), 'Done.']), tools: [keeper], store });
    expect((await agent.run('Go.').result).status).toBe('completed');
    expect(seen).toEqual({
      'before:toString': undefined,
      'before:constructor': undefined,
      'before:hasOwnProperty': undefined,
      'before:__proto__': undefined,
      proto: { kept: true },
      ctor: 'mine',
      other: undefined,
    });
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot())) as { toolState: Record<string, unknown> };
    expect(Object.getOwnPropertyNames(snapshot.toolState).sort()).toEqual(['__proto__', 'constructor']);
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([]), tools: [keeper], store, resume: agent.sessionId });
    await resumed.ready;
    const state = resumed.snapshot().toolState as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(state, '__proto__')?.value).toEqual({ kept: true });
    expect(Object.getPrototypeOf(state)).not.toEqual({ kept: true });
  });
});
