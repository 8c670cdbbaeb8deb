import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSharedPrefixGate, sharedPrefixGateFor, type SharedPrefixPass } from '../../../src/model/anthropic/shared-prefix-gate.js';
import type { ModelRequest, RequestTool } from '../../../src/model/model.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A system prompt of about `tokens` tokens at the gate's estimate (four characters a token). */
const systemOf = (tokens: number, text = 'You write articles. ') => [{ type: 'text' as const, text: text.repeat(Math.ceil((tokens * 4) / text.length)) }];
const tool = (name: string): RequestTool => ({ name, description: `The ${name} tool.`, input_schema: { type: 'object', properties: { path: { type: 'string' } } } });

const shared = { system: systemOf(2000), tools: [tool('Read'), tool('Grep')] };
const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({ ...shared, messages: [{ role: 'user', content: 'Go.' }], ...over });

function gate(now = () => 0, maxWaitMs = 30_000) {
  return createSharedPrefixGate({ knownForMs: 270_000, maxWaitMs, minimumTokens: 1024, maxLeaderTokens: 4096, now });
}

/** Whether a promise has settled, after the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let index = 0; index < 10; index++) await Promise.resolve();
  return done;
}

describe('the shared-prefix gate', () => {
  it('sends a request alone at once; one sent while it has not begun waits for it, then the prefix counts as cached', async () => {
    const prefixes = gate();
    const first = prefixes.enter(request());
    expect(typeof first).toBe('function');
    expect(prefixes.state).toEqual({ leaders: 1, known: 0 });
    const second = prefixes.enter(request({ messages: [{ role: 'user', content: 'Another task.' }] }));
    expect(second).toBeInstanceOf(Promise);
    expect(await settled(second as Promise<SharedPrefixPass>)).toBe(false);
    (first as SharedPrefixPass)(true);
    expect(await settled(second as Promise<SharedPrefixPass>)).toBe(true);
    expect(prefixes.state).toEqual({ leaders: 0, known: 1 });
    // Known cached: nothing waits for it, not even behind a request not begun.
    const third = prefixes.enter(request());
    const fourth = prefixes.enter(request());
    expect(typeof third).toBe('function');
    expect(typeof fourth).toBe('function');
    expect(prefixes.state.leaders).toBe(0);
  });

  it('waits only for a request whose own messages are short: one with a long history goes at once, and nothing waits for it, but it waits for a short one', async () => {
    const prefixes = gate();
    const history = Array.from({ length: 40 }, (_, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content: [{ type: 'text' as const, text: `Turn ${index}: ${'words '.repeat(100)}` }] }));
    const long = request({ messages: history });
    expect(typeof prefixes.enter(long)).toBe('function');
    expect(prefixes.state.leaders).toBe(0);
    // A document of 20,000 characters in one message is long too.
    expect(typeof prefixes.enter(request({ messages: [{ role: 'user', content: 'x'.repeat(20_000) }] }))).toBe('function');
    expect(prefixes.state.leaders).toBe(0);
    // 16,384 characters (4,096 tokens at four a token) still lead.
    const short = prefixes.enter(request({ messages: [{ role: 'user', content: 'x'.repeat(16_384) }] })) as SharedPrefixPass;
    expect(prefixes.state.leaders).toBe(1);
    const waiting = prefixes.enter(long) as Promise<SharedPrefixPass>;
    expect(waiting).toBeInstanceOf(Promise);
    short(false);
    // Released by a leader that failed, the long one still does not take the lead.
    expect(typeof (await waiting)).toBe('function');
    expect(prefixes.state.leaders).toBe(0);
  });

  it('lets requests with another prefix go at once, and keys deferred tools out of the prefix', () => {
    const prefixes = gate();
    prefixes.enter(request());
    expect(typeof prefixes.enter(request({ system: systemOf(2000, 'You review code. ') }))).toBe('function');
    expect(typeof prefixes.enter(request({ tools: [tool('Read')] }))).toBe('function');
    expect(typeof prefixes.enter(request({ tools: [...shared.tools].reverse() }))).toBe('function');
    // A native output format is a system prompt of the API's own: another prefix.
    const format = { type: 'json_schema' as const, schema: { type: 'object', properties: { title: { type: 'string' } } } };
    expect(typeof prefixes.enter(request({ outputFormat: format }))).toBe('function');
    expect(prefixes.enter(request({ outputFormat: structuredClone(format) }))).toBeInstanceOf(Promise);
    // The same prefix with a deferred tool more: the API caches the same start, so it waits.
    expect(prefixes.enter(request({ tools: [...shared.tools, { ...tool('Search'), defer_loading: true } as RequestTool] }))).toBeInstanceOf(Promise);
  });

  it('hands the lead to a waiting request when the first fails before its response begins, and counts nothing cached', async () => {
    const prefixes = gate();
    const first = prefixes.enter(request()) as SharedPrefixPass;
    const second = prefixes.enter(request()) as Promise<SharedPrefixPass>;
    const third = prefixes.enter(request()) as Promise<SharedPrefixPass>;
    first(false);
    expect(await settled(second)).toBe(true);
    // The second leads now: the third goes on waiting, for it.
    expect(await settled(third)).toBe(false);
    expect(prefixes.state).toEqual({ leaders: 1, known: 0 });
    (await second)(true);
    expect(await settled(third)).toBe(true);
    expect(prefixes.state).toEqual({ leaders: 0, known: 1 });
  });

  it('reports once: a pass called again does not release another leader', async () => {
    const prefixes = gate();
    const first = prefixes.enter(request()) as SharedPrefixPass;
    const second = prefixes.enter(request()) as Promise<SharedPrefixPass>;
    const third = prefixes.enter(request()) as Promise<SharedPrefixPass>;
    first(false);
    await settled(second);
    first(false);
    first(true);
    expect(await settled(third)).toBe(false);
    expect(prefixes.state).toEqual({ leaders: 1, known: 0 });
  });

  it('forgets a cached prefix once its entries may have expired', async () => {
    let now = 0;
    const prefixes = gate(() => now);
    (prefixes.enter(request()) as SharedPrefixPass)(true);
    now = 269_999;
    expect(typeof prefixes.enter(request())).toBe('function');
    expect(prefixes.state.leaders).toBe(0);
    now = 270_000;
    const leader = prefixes.enter(request());
    expect(typeof leader).toBe('function');
    expect(prefixes.enter(request())).toBeInstanceOf(Promise);
    expect(prefixes.state).toEqual({ leaders: 1, known: 0 });
  });

  it('waits at most maxWaitMs, then sends anyway', async () => {
    vi.useFakeTimers();
    const prefixes = gate(() => Date.now(), 5_000);
    prefixes.enter(request());
    const second = prefixes.enter(request()) as Promise<SharedPrefixPass>;
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await settled(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(second)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a request that waited the longest takes the lead from a first one that never began: later ones wait for it, not for the stale one', async () => {
    vi.useFakeTimers();
    const prefixes = gate(() => Date.now(), 5_000);
    const stale = prefixes.enter(request()) as SharedPrefixPass;
    const second = prefixes.enter(request()) as Promise<SharedPrefixPass>;
    await vi.advanceTimersByTimeAsync(5_000);
    const takenOver = await second;
    expect(prefixes.state.leaders).toBe(1);
    const third = prefixes.enter(request()) as Promise<SharedPrefixPass>;
    expect(await settled(third)).toBe(false);
    // The stale one ending does not release those waiting for the new leader, nor remove it.
    stale(false);
    expect(await settled(third)).toBe(false);
    expect(prefixes.state.leaders).toBe(1);
    takenOver(true);
    expect(await settled(third)).toBe(true);
    expect(prefixes.state).toEqual({ leaders: 0, known: 1 });
  });

  it('a request with a long history that waited as long goes without taking the lead', async () => {
    vi.useFakeTimers();
    const prefixes = gate(() => Date.now(), 5_000);
    const stale = prefixes.enter(request()) as SharedPrefixPass;
    const longWait = prefixes.enter(request({ messages: [{ role: 'user', content: 'x'.repeat(20_000) }] })) as Promise<SharedPrefixPass>;
    await vi.advanceTimersByTimeAsync(5_000);
    (await longWait)(true);
    // The stale leader is still the one later requests wait for (the long one's answer began, so the prefix is cached now).
    expect(prefixes.state).toEqual({ leaders: 1, known: 1 });
    stale(false);
    expect(prefixes.state).toEqual({ leaders: 0, known: 1 });
  });

  it('waits a wait longer than a timer takes (the gate is given one directly) at the timer\'s limit, not at once', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const prefixes = gate(() => 0, Number.MAX_SAFE_INTEGER);
    const first = prefixes.enter(request()) as SharedPrefixPass;
    const second = prefixes.enter(request()) as Promise<SharedPrefixPass>;
    expect(timers).toHaveBeenCalledWith(expect.any(Function), 2_147_483_647);
    timers.mockRestore();
    first(true);
    await second;
  });

  it('ends a wait when its signal aborts, with the signal reason, and leaves no timer or listener behind', async () => {
    vi.useFakeTimers();
    const prefixes = gate(() => Date.now());
    const first = prefixes.enter(request()) as SharedPrefixPass;
    const controller = new AbortController();
    const listeners = vi.spyOn(controller.signal, 'removeEventListener');
    const second = prefixes.enter(request(), controller.signal) as Promise<SharedPrefixPass>;
    const reason = new Error('stopped by the host');
    controller.abort(reason);
    await expect(second).rejects.toBe(reason);
    expect(listeners).toHaveBeenCalledWith('abort', expect.any(Function));
    expect(vi.getTimerCount()).toBe(0);
    // An already aborted signal does not wait at all.
    await expect(prefixes.enter(request(), controller.signal)).rejects.toBe(reason);
    // The leader is not disturbed.
    expect(prefixes.state.leaders).toBe(1);
    first(true);
    expect(prefixes.state).toEqual({ leaders: 0, known: 1 });
  });

  it('lets through a prefix below the minimum cacheable size, and everything with maxWaitMs 0', () => {
    const prefixes = gate();
    const small = request({ system: systemOf(900), tools: [] });
    prefixes.enter(small);
    expect(typeof prefixes.enter(small)).toBe('function');
    expect(typeof prefixes.enter(request({ system: [], tools: [] }))).toBe('function');
    expect(prefixes.state.leaders).toBe(0);
    const off = gate(() => 0, 0);
    off.enter(request());
    expect(typeof off.enter(request())).toBe('function');
    expect(off.state.leaders).toBe(0);
  });

  it("takes the model's minimum: a prefix of about 2,000 tokens is waited for on Sonnet, not on Haiku 4.5 (4,096)", () => {
    const sonnet = sharedPrefixGateFor({ apiKey: 'sonnet-test' }, 'claude-sonnet-4-6', '5m', 30_000);
    sonnet.enter(request());
    expect(sonnet.enter(request())).toBeInstanceOf(Promise);
    const haiku = sharedPrefixGateFor({ apiKey: 'haiku-test' }, 'claude-haiku-4-5', '5m', 30_000);
    haiku.enter(request());
    expect(typeof haiku.enter(request())).toBe('function');
  });

  it('is one gate for one account, model and settings: the same client, or the same API key and base URL', () => {
    const client = {};
    expect(sharedPrefixGateFor({ client }, 'claude-sonnet-4-6', '5m', 30_000)).toBe(sharedPrefixGateFor({ client }, 'claude-sonnet-4-6', '5m', 30_000));
    expect(sharedPrefixGateFor({ client }, 'claude-sonnet-4-6', '5m', 30_000)).not.toBe(sharedPrefixGateFor({ client: {} }, 'claude-sonnet-4-6', '5m', 30_000));
    const account = { apiKey: 'key-a', baseURL: 'http://127.0.0.1:1' };
    const gate = sharedPrefixGateFor(account, 'claude-sonnet-4-6', '5m', 30_000);
    expect(sharedPrefixGateFor({ ...account }, 'claude-sonnet-4-6', '5m', 30_000)).toBe(gate);
    expect(sharedPrefixGateFor({ ...account, extras: [undefined, undefined] }, 'claude-sonnet-4-6', '5m', 30_000)).toBe(sharedPrefixGateFor({ ...account, extras: [undefined, undefined] }, 'claude-sonnet-4-6', '5m', 30_000));
    // Extras no request could carry share with nothing (and do not throw).
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(sharedPrefixGateFor({ ...account, extras: [cyclic] }, 'claude-sonnet-4-6', '5m', 30_000)).not.toBe(sharedPrefixGateFor({ ...account, extras: [cyclic] }, 'claude-sonnet-4-6', '5m', 30_000));
    for (const other of [
      sharedPrefixGateFor({ ...account, apiKey: 'key-b' }, 'claude-sonnet-4-6', '5m', 30_000),
      sharedPrefixGateFor({ ...account, baseURL: 'http://127.0.0.1:2' }, 'claude-sonnet-4-6', '5m', 30_000),
      sharedPrefixGateFor(account, 'claude-opus-4-1', '5m', 30_000),
      sharedPrefixGateFor(account, 'claude-sonnet-4-6', '1h', 30_000),
      sharedPrefixGateFor(account, 'claude-sonnet-4-6', '5m', 10_000),
      sharedPrefixGateFor({ ...account, extras: [{ mcp_servers: [{ type: 'url', url: 'https://mcp.example', name: 'docs' }] }, undefined] }, 'claude-sonnet-4-6', '5m', 30_000),
      sharedPrefixGateFor({ ...account, extras: [undefined, { 'anthropic-beta': 'some-beta' }] }, 'claude-sonnet-4-6', '5m', 30_000),
    ]) {
      expect(other).not.toBe(gate);
    }
  });

  it('works the key out again when the tools array changes in place', () => {
    const prefixes = gate();
    const tools = [...shared.tools];
    const mine = request({ tools });
    prefixes.enter(mine);
    expect(prefixes.enter(request({ tools }))).toBeInstanceOf(Promise);
    tools.push(tool('Write'));
    expect(typeof prefixes.enter(request({ tools }))).toBe('function');
    expect(prefixes.state.leaders).toBe(2);
  });

  it('remembers at most 256 cached prefixes, forgetting the least recently used', () => {
    const prefixes = gate();
    const first = request({ system: systemOf(2000, 'Prefix number zero. ') });
    (prefixes.enter(first) as SharedPrefixPass)(true);
    for (let index = 1; index <= 256; index++) {
      if (index === 200) (prefixes.enter(first) as SharedPrefixPass)(true); // used again: kept
      (prefixes.enter(request({ system: systemOf(2000, `Prefix number ${index}. `) })) as SharedPrefixPass)(true);
    }
    expect(prefixes.state.known).toBe(256);
    expect(typeof prefixes.enter(first)).toBe('function');
    expect(prefixes.state.leaders).toBe(0);
    const forgotten = request({ system: systemOf(2000, 'Prefix number 1. ') });
    prefixes.enter(forgotten);
    expect(prefixes.state.leaders).toBe(1);
  });
});
