import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { AGENT_EVENT_TYPES } from '../../src/events/agent-event-types.js';

const todo = [{ content: 'a', status: 'pending' as const, activeForm: 'A' }];

describe('agent.on / once / off refuse what no event is', () => {
  it('a mistyped event type is refused where it is written, with the type it likely meant', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    for (const method of ['on', 'once', 'off'] as const) {
      let thrown: unknown;
      try {
        (agent[method] as (type: string, listener: () => void) => unknown)('tool_call', () => undefined);
      } catch (error) {
        thrown = error;
      }
      expect(ConfigurationError.isInstance(thrown), `${method}: ${String(thrown)}`).toBe(true);
      expect((thrown as Error).message).toContain(`agent.${method}(type, …) got the string "tool_call"`);
      expect((thrown as Error).message).toContain("Did you mean 'tool-call'?");
      expect((thrown as Error).message).toContain('run-end');
    }
  });

  it('names that are no string, empty, inherited or far from any event are refused without a guess', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    for (const type of ['', 'toString', '__proto__', 'constructor', 'banana', 'x'.repeat(10_000), 42, undefined, null, Symbol('tool-call'), {}]) {
      let thrown: unknown;
      try {
        (agent.on as (type: unknown, listener: () => void) => unknown)(type, () => undefined);
      } catch (error) {
        thrown = error;
      }
      expect(ConfigurationError.isInstance(thrown), String(type as string)).toBe(true);
      expect((thrown as Error).message).not.toContain('Did you mean');
      expect((thrown as Error).message.length).toBeLessThan(1_000);
    }
  });

  it('a listener that is not a function is refused, and a refused call registers nothing', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    expect(() => (agent.on as (type: string, listener: unknown) => unknown)('todo-update', 'log')).toThrow(/listener must be a function, got the string "log"/);
    let calls = 0;
    expect(() => (agent.on as (type: string, listener: () => void) => unknown)('todo_update', () => void calls++)).toThrow(ConfigurationError);
    agent.setTodos(todo);
    expect(calls).toBe(0);
  });

  it('every event type still works, and the list is exactly the AgentEvent union', () => {
    const source = readFileSync(new URL('../../src/events/agent-event.ts', import.meta.url), 'utf8');
    const declared = new Set([...source.matchAll(/^\s+type: '([a-z-]+)';/gm)].map((match) => match[1]));
    expect(new Set(AGENT_EVENT_TYPES)).toEqual(declared);
    const agent = createAgent({ model: scriptedModel([]) });
    const listener = () => undefined;
    for (const type of AGENT_EVENT_TYPES) {
      agent.on(type, listener).once(type, listener).off(type, listener).off(type, listener);
    }
    let calls = 0;
    agent.on('todo-update', () => void calls++);
    agent.setTodos(todo);
    expect(calls).toBe(1);
  });
});
