import { describe, expect, it } from 'vitest';
import { createAgent, defineTool, type ToolUseBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { copyToolInput } from '../../src/hooks/copy-tool-input.js';

/** What copyToolInput promises: structuredClone's copy, or the value itself when that cannot be made. */
function cloneOrSame(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

describe('copyToolInput', () => {
  const cases: Array<[string, () => unknown]> = [
    ['a flat object of primitives', () => ({ path: '/a', count: 3, negativeZero: -0, nan: Number.NaN, on: false, none: null, missing: undefined, big: 10n })],
    ['an empty object', () => ({})],
    ['an object without a prototype', () => Object.assign(Object.create(null) as object, { path: '/a' })],
    ['an own "__proto__" key, as JSON.parse makes it', () => JSON.parse('{"__proto__": "x", "path": "/a"}') as unknown],
    ['an own "__proto__" object', () => JSON.parse('{"__proto__": {"polluted": true}}') as unknown],
    ['integer-like keys and others, in their order', () => ({ b: 1, 2: 'two', a: 2, 1: 'one' })],
    ['a symbol key and a non-enumerable property', () => Object.defineProperty({ [Symbol('s')]: 1, kept: 'yes' }, 'hidden', { value: 1, enumerable: false })],
    ['a getter', () => ({ get path() { return '/read'; } })],
    ['a nested object', () => ({ nested: { value: 'a' }, list: [1, 2] })],
    ['an array', () => [1, 'two', { three: 3 }]],
    ['a class instance', () => new (class Point { x = 1; y = 2; })()],
    ['a Date value', () => ({ at: new Date(0) })],
    ['a Date', () => new Date(0)],
    ['a Map', () => new Map([['path', '/a']])],
    ['a function value (cannot be copied)', () => ({ run: () => 1 })],
    ['a symbol value (cannot be copied)', () => ({ tag: Symbol('t') })],
  ];
  for (const [name, make] of cases) {
    it(`copies ${name} as structuredClone does`, () => {
      const input = make();
      const expected = cloneOrSame(input);
      const copy = copyToolInput(input);
      if (expected === input) return void expect(copy).toBe(input);
      expect(copy).not.toBe(input);
      expect(copy).toStrictEqual(expected);
      expect(Object.getPrototypeOf(copy)).toBe(Object.getPrototypeOf(expected));
      expect(Reflect.ownKeys(copy as object)).toEqual(Reflect.ownKeys(expected as object));
      expect(Object.prototype.toString.call(copy)).toBe(Object.prototype.toString.call(expected));
    });
  }

  it('keeps -0 and an own undefined (toStrictEqual does not tell -0 from 0)', () => {
    const copy = copyToolInput({ zero: -0, missing: undefined }) as { zero: number; missing: undefined };
    expect(Object.is(copy.zero, -0)).toBe(true);
    expect(Object.hasOwn(copy, 'missing')).toBe(true);
  });

  it('copies a Proxy of a flat plain object (structuredClone refuses a Proxy; it was handed over as it was)', () => {
    const input = new Proxy({ path: '/a' }, {});
    const copy = copyToolInput(input) as { path: string };
    expect(copy).not.toBe(input);
    expect(copy).toStrictEqual({ path: '/a' });
  });

  it('returns a value that is no object as it is', () => {
    for (const value of ['text', 1, null, undefined, true]) expect(copyToolInput(value)).toBe(value);
  });
});

describe('the tool-call event of a flat input', () => {
  it('gives listeners a copy: one that changes it in place reaches neither the call nor the history', async () => {
    const ORIGINAL = { path: '/a', count: 1 };
    const ran: unknown[] = [];
    const tool = defineTool({
      name: 'read',
      description: 'Reads.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, count: { type: 'number' } }, required: ['path', 'count'] } as never,
      readOnly: true,
      execute: ({ input }: { input: unknown }) => (ran.push(structuredClone(input)), 'read'),
    });
    const model = scriptedModel([turn(toolCall('read', { ...ORIGINAL }, 't1')), 'done']);
    const agent = createAgent({ model, tools: [tool] });
    agent.on('tool-call', (event) => {
      const input = event.input as { path: unknown; count: unknown };
      input.path = 42;
      input.count = 'many';
    });
    expect((await agent.run('go').result).status).toBe('completed');
    expect(ran).toEqual([ORIGINAL]);
    expect((agent.messages[1]!.content as ToolUseBlock[])[0]!.input).toEqual(ORIGINAL);
    expect((model.requests[1]!.messages[1]!.content as ToolUseBlock[])[0]!.input).toEqual(ORIGINAL);
  });
});
