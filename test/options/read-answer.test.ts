// A host's answer may be a class instance whose documented fields are getters on its prototype;
// they are read by name (once each), not lost with the own-properties copy.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentOptions } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { readAnswer } from '../../src/options/read-answer.js';

/** A class instance whose fields live on its prototype as getters; `reads` counts each read. */
function instanceWith(fields: Record<string, unknown>, reads: Record<string, number> = {}) {
  class Answer {}
  for (const [name, value] of Object.entries(fields)) {
    Object.defineProperty(Answer.prototype, name, {
      get() {
        reads[name] = (reads[name] ?? 0) + 1;
        return value;
      },
    });
  }
  return new Answer();
}

describe('readAnswer', () => {
  it('reads documented fields from prototype getters, each once, and keeps own fields', () => {
    const reads: Record<string, number> = {};
    const answer = Object.assign(instanceWith({ behavior: 'deny', message: 'no' }, reads), { note: 'own' });
    expect(readAnswer(answer, ['behavior', 'message', 'interrupt'])).toEqual({ behavior: 'deny', message: 'no', note: 'own' });
    expect(reads).toEqual({ behavior: 1, message: 1 });
  });

  it('reads an own non-enumerable documented field and a Proxy that answers by get only', () => {
    const hidden = Object.defineProperty({}, 'behavior', { value: 'allow', enumerable: false });
    expect(readAnswer(hidden, ['behavior'])).toEqual({ behavior: 'allow' });
    const gets: string[] = [];
    const proxy = new Proxy({}, { get: (_target, key) => (gets.push(String(key)), key === 'behavior' ? 'defer' : undefined) });
    expect(readAnswer(proxy, ['behavior', 'message'])).toEqual({ behavior: 'defer' });
    expect(gets).toEqual(['behavior', 'message']);
  });

  it('an own field is read once, not again by name', () => {
    let reads = 0;
    const answer = Object.defineProperty({}, 'behavior', { enumerable: true, get: () => (reads++, 'allow') });
    expect(readAnswer(answer, ['behavior'])).toEqual({ behavior: 'allow' });
    expect(reads).toBe(1);
  });

  it('a prototype getter that throws throws from readAnswer (inside the caller’s try)', () => {
    class Answer {
      get behavior(): string {
        throw new Error('reading behavior failed');
      }
    }
    expect(() => readAnswer(new Answer(), ['behavior'])).toThrow('reading behavior failed');
  });

  it('returns what is not a plain object as it is', () => {
    expect(readAnswer(undefined, ['behavior'])).toBeUndefined();
    expect(readAnswer('allow', ['behavior'])).toBe('allow');
    const list = [1];
    expect(readAnswer(list, ['behavior'])).toBe(list);
  });
});

const deny = () => ({ behavior: 'deny' as const, message: 'The host said no.' });

const cases: Array<[string, Partial<AgentOptions> & { check?: () => unknown }, 'ran edited' | string]> = [
  ['canUseTool allow with updatedInput', { canUseTool: () => instanceWith({ behavior: 'allow', updatedInput: { draft: 'edited' } }) as never }, 'ran edited'],
  ['canUseTool deny', { canUseTool: () => instanceWith({ behavior: 'deny', message: 'Not today.' }) as never }, 'Not today.'],
  ['PreToolUse hook deny', { canUseTool: () => ({ behavior: 'allow' }), hooks: { PreToolUse: [{ hook: () => instanceWith({ decision: 'deny', reason: 'Hook says no.' }) as never }] } }, 'Hook says no.'],
  ['PermissionRequest hook allow with updatedInput', { canUseTool: deny, hooks: { PermissionRequest: [{ hook: () => instanceWith({ decision: 'allow', updatedInput: { draft: 'edited' } }) as never }] } }, 'ran edited'],
  ['autoMode.classify deny', { permissionMode: 'auto', autoMode: { classify: () => instanceWith({ behavior: 'deny', message: 'Classifier says no.' }) as never }, canUseTool: () => ({ behavior: 'allow' }) }, 'Classifier says no.'],
  ["the tool's check deny", { canUseTool: () => ({ behavior: 'allow' }), check: () => instanceWith({ behavior: 'deny', message: 'Check says no.' }) }, 'Check says no.'],
];

describe('a host answer that is a class instance with getters on its prototype', () => {
  it.each(cases)('%s is honoured', async (_name, { check, ...options }, expected) => {
    const ran: string[] = [];
    const tool = defineTool({
      name: 'Publish',
      description: 'Publishes the draft.',
      inputSchema: z.object({ draft: z.string() }),
      ...(check ? { checkPermissions: check as never } : {}),
      execute: ({ input }) => {
        ran.push(input.draft);
        return 'published';
      },
    });
    const model = scriptedModel([turn(toolCall('Publish', { draft: 'a' }, 'toolu_publish')), 'Done.']);
    const agent = createAgent({ model, tools: [tool], ...options });
    const errors: unknown[] = [];
    agent.on('error', (event) => void errors.push(event));
    const result = await agent.run('publish it').result;
    expect(result.status).toBe('completed');
    expect(errors).toEqual([]);
    const answer = model.requests[1]!.messages.at(-1)!.content as Array<{ type: string; content?: unknown; is_error?: boolean }>;
    if (expected === 'ran edited') {
      expect(ran).toEqual(['edited']);
      expect(answer[0]).toMatchObject({ type: 'tool_result' });
      expect(answer[0]!.is_error).not.toBe(true);
      expect(answer[0]!.content).toMatch(/published$/);
    } else {
      expect(ran).toEqual([]);
      expect(answer[0]).toMatchObject({ type: 'tool_result', is_error: true });
      expect(JSON.stringify(answer[0]!.content)).toContain(expected);
    }
    await agent.close();
  });
});
