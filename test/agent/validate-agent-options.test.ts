import { describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, forkSession, memoryPlanStore, memorySessionStore, recoverPlan, type PlanStore, type SessionStore, type TracerLike } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { copyPlanForResume } from '../../src/plan/copy-plan.js';
import { allocatePlanSlug } from '../../src/plan/allocate-plan-slug.js';

const model = () => scriptedModel(['Done.']);

/** The message createAgent throws with `options`, or undefined when it accepts them. */
function refusal(options: Record<string, unknown>): string | undefined {
  try {
    createAgent({ model: model(), ...options } as never);
    return undefined;
  } catch (error) {
    expect(ConfigurationError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
}

/** A store as a class, its methods on the prototype (as stores usually are), forwarding to one in memory. */
class ClassSessionStore implements SessionStore {
  readonly #inner = memorySessionStore();
  append(...args: Parameters<SessionStore['append']>) {
    return this.#inner.append(...args);
  }
  load(...args: Parameters<SessionStore['load']>) {
    return this.#inner.load(...args);
  }
  list() {
    return this.#inner.list();
  }
  delete(sessionId: string) {
    return this.#inner.delete(sessionId);
  }
}

class ClassPlanStore implements PlanStore {
  readonly #inner = memoryPlanStore();
  read(name: string) {
    return this.#inner.read(name);
  }
  write(name: string, text: string) {
    return this.#inner.write(name, text);
  }
  exists(name: string) {
    return this.#inner.exists(name);
  }
  list() {
    return this.#inner.list();
  }
}

class ClassTracer implements TracerLike {
  startActiveSpan<T>(_name: string, _options: unknown, fn: (span: never) => T): T {
    return fn({ setAttribute() {}, setStatus() {}, recordException() {}, end() {} } as never);
  }
}

describe('createAgent({ sessionId })', () => {
  it('refuses an id no store would take, when the agent is made, naming why and the limit', () => {
    expect(refusal({ sessionId: 'x'.repeat(201) })).toMatch(/^createAgent: `sessionId` is 201 bytes long in UTF-8, at most 200 are allowed; .*at most 200 bytes/);
    expect(refusal({ sessionId: '漢'.repeat(67) })).toMatch(/is 201 bytes long in UTF-8/);
    expect(refusal({ sessionId: 'a\u0000b' })).toMatch(/`sessionId` contains a NUL character/);
    expect(refusal({ sessionId: 'a\ud800' })).toMatch(/`sessionId` contains a lone surrogate/);
    expect(refusal({ sessionId: '   ' })).toMatch(/`sessionId` must be a non-empty string/);
  });

  it('takes an id of exactly 200 bytes of UTF-8', () => {
    expect(refusal({ sessionId: 'x'.repeat(200) })).toBeUndefined();
    expect(refusal({ sessionId: `${'漢'.repeat(66)}ab` })).toBeUndefined();
  });
});

describe('createAgent: store, planStore and tracer must have the methods they are used through', () => {
  it('refuses `store: {}` naming the option, the missing methods and the stores to use', () => {
    expect(refusal({ store: {} })).toBe(
      'createAgent: `store` must be a session store (memorySessionStore(), fileSessionStore({ dir }) from agent-harness/node, or your own implementing SessionStore), an object with the methods append, load, list and delete; it has no append, load, list and delete methods (got {}).',
    );
  });

  it('refuses a store missing one method, or with an optional method that is not a function', () => {
    const { delete: _delete, ...partial } = memorySessionStore();
    expect(refusal({ store: partial })).toMatch(/`store` must be a session store .*; it has no delete method \(got /);
    expect(refusal({ store: { ...memorySessionStore(), close: 'yes' } })).toMatch(/`store` must be a session store .*; its close is not a function/);
  });

  it('refuses `planStore: {}` and `tracer: {}`, naming what to pass', () => {
    expect(refusal({ planStore: { read: () => undefined } })).toMatch(
      /^createAgent: `planStore` must be a plan store \(memoryPlanStore\(\), filePlanStore\(\{ dir \}\) from agent-harness\/node, or your own implementing PlanStore\), an object with the methods read, write, exists and list; it has no write, exists and list methods/,
    );
    expect(refusal({ tracer: {} })).toBe(
      "createAgent: `tracer` must be an OpenTelemetry tracer (trace.getTracer('my-app') from @opentelemetry/api), an object with the method startActiveSpan; it has no startActiveSpan method (got {}).",
    );
    expect(refusal({ tracer: 'my-app' })).toMatch(/`tracer` must be an OpenTelemetry tracer .*, got the string "my-app"\.$/);
  });

  it('accepts the library\'s stores and class instances whose methods live on the prototype', async () => {
    expect(refusal({ store: memorySessionStore(), planStore: memoryPlanStore() })).toBeUndefined();
    expect(refusal({ store: new ClassSessionStore(), planStore: new ClassPlanStore(), tracer: new ClassTracer() })).toBeUndefined();
    const agent = createAgent({ model: model(), store: new ClassSessionStore(), planStore: new ClassPlanStore(), tracer: new ClassTracer() });
    expect((await agent.run('go').result).status).toBe('completed');
  });
});

describe('the plan functions check their plan store the same way', () => {
  const notAStore = { read: async () => undefined };
  it('copyPlanForResume, allocatePlanSlug, recoverPlan and forkSession name the missing methods', async () => {
    await expect(allocatePlanSlug({ store: notAStore as never })).rejects.toThrow(/^allocatePlanSlug: `store` must be a plan store .*; it has no write, exists and list methods/);
    await expect(copyPlanForResume({ store: notAStore as never, slug: 'a-plan', entries: [] })).rejects.toThrow(/^copyPlanForResume: `store` must be a plan store/);
    await expect(recoverPlan({ entries: [], store: notAStore as never })).rejects.toThrow(/^recoverPlan: `store` must be a plan store/);
    await expect(forkSession(memorySessionStore(), 's', { planStore: notAStore as never })).rejects.toThrow(/^forkSession: `planStore` must be a plan store/);
  });

  it('forkSession checks its session store too', async () => {
    await expect(forkSession({} as never, 's')).rejects.toThrow(/^forkSession: `store` must be a session store .*; it has no append, load, list and delete methods/);
  });
});

describe('createAgent({ agents }): the names of subagent types', () => {
  const definition = { description: 'Reviews code.', prompt: 'You review code.' };
  it.each([
    ['', /subagent type "" in `agents` is blank/],
    ['   ', /is blank/],
    [' reviewer', /starts or ends with whitespace/],
    ['code\nreviewer', /control, line-break or invisible character/],
    ['code\u202ereviewer', /control, line-break or invisible character/],
    ['code\u200breviewer', /control, line-break or invisible character/],
    ['x'.repeat(65), /longer than 64 characters/],
  ])('%j is refused with a ConfigurationError naming it and the cure', (type, message) => {
    const said = refusal({ agents: { [type]: definition } });
    expect(said).toMatch(message);
    expect(said).toContain('"code-reviewer"');
  });

  it.each(['code-reviewer', 'explore', 'Code Reviewer', 'ревьюер', 'x'.repeat(64)])('%j is accepted', (type) => {
    expect(refusal({ agents: { [type]: definition } })).toBeUndefined();
  });
});
