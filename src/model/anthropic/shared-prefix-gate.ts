import { twoLaneHash } from '../../ids/two-lane-hash.js';
import { MAX_TIMER_MS } from '../../types/max-timer-ms.js';
import { findModelEntry } from '../find-model-entry.js';
import { isDeferredTool } from '../is-deferred-tool.js';
import type { TextBlock } from '../messages.js';
import type { ModelRequest, RequestTool } from '../model.js';
import { MINIMUM_CACHEABLE_TOKENS } from './minimum-cacheable-tokens.js';

/** Options of {@link createSharedPrefixGate}. */
export interface SharedPrefixGateOptions {
  /**
   * How long a prefix counts as cached after a response that sent it began: the lifetime of the
   * adapter's cache entries, less a margin.
   */
  knownForMs: number;
  /** The longest a request waits for another one's response to begin; past it, it is sent anyway. */
  maxWaitMs: number;
  /** Prefixes estimated below this many tokens are not cached by the API, so nothing waits for them. */
  minimumTokens: number;
  /**
   * Only a request whose messages are estimated at most this many tokens is waited for: its answer
   * begins about when its prefix is read. One with a long history or a large document (a session
   * resumed after a while) begins late, so it is sent without anything waiting for it.
   */
  maxLeaderTokens: number;
  /** The clock. @default Date.now */
  now?: () => number;
}

/**
 * What a request reports once it is sent: `true` when its response began (its first event was
 * `message_start`), `false` when it failed before that. Called once; later calls do nothing.
 */
export type SharedPrefixPass = (began: boolean) => void;

/** See {@link createSharedPrefixGate}. */
export interface SharedPrefixGate {
  /**
   * Admits a request: at once (a function), or once the concurrent request it waits for has begun
   * its response (a promise). Rejects with the signal's reason when the signal aborts the wait;
   * never throws.
   */
  enter(request: ModelRequest, signal?: AbortSignal): SharedPrefixPass | Promise<SharedPrefixPass>;
  /** Requests sent and not begun that others would wait for, and prefixes known cached (for tests). */
  readonly state: { readonly leaders: number; readonly known: number };
}

/** The longest messages (estimated tokens) of a request others wait for; see `SharedPrefixGateOptions.maxLeaderTokens`. */
const MAX_LEADER_TOKENS = 4096;

/** How long before its entry's lifetime ends a prefix stops counting as cached (the clocks differ; a read late in the lifetime may miss). */
const KNOWN_MARGIN_MS = 30_000;

/** Where an `anthropicModel`'s requests go: the client it was given, or the key and base URL it makes its client with. */
export interface SharedPrefixAccount {
  client?: object | undefined;
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  /**
   * What else every request of the model carries (its `extraBody` and headers, e.g. MCP servers or
   * betas that change what the API caches ahead of the messages): models that differ here never
   * wait for each other.
   */
  extras?: readonly unknown[] | undefined;
}

let unserializable = 0;

/** Gates by account, model and settings, shared by every `anthropicModel` made with the same ones. */
const byClient = new WeakMap<object, Map<string, SharedPrefixGate>>();
const byKey = new Map<string, SharedPrefixGate>();
/** Accounts without a client object remembered, at most (a host making a model per tenant key); the oldest is dropped. */
const MAX_ACCOUNTS = 64;

/**
 * The gate of an `anthropicModel`: prefixes count as cached for the lifetime of its breakpoints'
 * entries less a margin, and those below the model's minimum cacheable size are let through. Every
 * `anthropicModel` with the same client (or the same API key and base URL), model id, lifetime and
 * wait shares one gate, so a host that makes a model per request still has its sessions started at
 * once share their prefix; another account's requests never wait for these (its cache is its own).
 * @param account - the client, or the API key and base URL.
 * @param model - the model id (its minimum cacheable prefix).
 * @param ttl - the lifetime of the adapter's cache entries.
 * @param maxWaitMs - the longest wait (`promptCaching.sharedPrefixWaitMs`).
 */
export function sharedPrefixGateFor(account: SharedPrefixAccount, model: string, ttl: '5m' | '1h', maxWaitMs: number): SharedPrefixGate {
  let extras: string;
  try {
    extras = JSON.stringify(account.extras ?? []);
  } catch {
    extras = `unserializable ${++unserializable}`; // a request could not carry it either: shared with nothing
  }
  const settings = `${model}\u0000${ttl}\u0000${maxWaitMs}\u0000${extras}`;
  let gates: Map<string, SharedPrefixGate>;
  let key = settings;
  if (account.client !== undefined) {
    gates = byClient.get(account.client) ?? new Map();
    byClient.set(account.client, gates);
  } else {
    gates = byKey;
    key = `${account.baseURL ?? ''}\u0000${account.apiKey ?? ''}\u0000${settings}`;
  }
  let gate = gates.get(key);
  if (gate === undefined) {
    const lifetime = ttl === '1h' ? 3_600_000 : 300_000;
    gate = createSharedPrefixGate({ knownForMs: lifetime - KNOWN_MARGIN_MS, maxWaitMs, minimumTokens: findModelEntry(model, MINIMUM_CACHEABLE_TOKENS) ?? 1024, maxLeaderTokens: MAX_LEADER_TOKENS });
    gates.set(key, gate);
    if (gates === byKey && byKey.size > MAX_ACCOUNTS) byKey.delete(byKey.keys().next().value!);
  }
  return gate;
}

/** A request sent with a prefix whose response has not begun: others wait for `begun`. */
interface Leader {
  begun: Promise<void>;
  release: () => void;
}

/** A prefix: its key and estimated size. */
interface Prefix {
  key: string;
  tokens: number;
}

/** Prefixes remembered as cached, at most; the oldest is forgotten first. */
const MAX_KNOWN = 256;

const ignore: SharedPrefixPass = () => {};

/**
 * Makes requests that share an uncached prompt prefix (the same tools and system prompt) read it
 * from the cache instead of each writing it. The API makes a cache entry readable only once the
 * response that wrote it has begun, so requests sent together (parallel subagents of one type,
 * sessions of one agent started at once) would each pay the write, 1.25× the prefix's input price
 * (twice for one-hour entries), where a read costs a tenth. While one request with a prefix has
 * been sent and its response has not begun, the next ones with that prefix wait for it (at most
 * `maxWaitMs`, after which the request that waited takes the lead from the stale one); once a
 * response with it has begun, the prefix counts as cached for `knownForMs` and nothing waits for
 * it. A request whose leader failed before its response began takes the lead. Only a request
 * whose own messages are short leads (see `maxLeaderTokens`).
 *
 * Costs nothing on the way of a request sent alone beyond a map lookup: the prefix's key is worked
 * out once per `tools` array (the loop sends the same one every turn).
 */
export function createSharedPrefixGate(options: SharedPrefixGateOptions): SharedPrefixGate {
  const now = options.now ?? Date.now;
  const leaders = new Map<string, Leader>();
  const known = new Map<string, number>();
  const prefixes = new WeakMap<readonly RequestTool[], { system: readonly TextBlock[]; count: number; prefix: Prefix }>();

  const prefixOf = (request: ModelRequest): Prefix | undefined => {
    const memo = prefixes.get(request.tools);
    if (memo !== undefined && memo.system === request.system && memo.count === request.tools.length) return memo.prefix;
    let prefix: Prefix;
    try {
      prefix = describePrefix(request);
    } catch {
      return undefined;
    }
    prefixes.set(request.tools, { system: request.system, count: request.tools.length, prefix });
    return prefix;
  };

  const isKnown = (key: string): boolean => {
    const at = known.get(key);
    if (at === undefined) return false;
    if (now() - at < options.knownForMs) return true;
    known.delete(key);
    return false;
  };

  const remember = (key: string): void => {
    known.delete(key); // re-inserted last: the map's order is the order of use
    known.set(key, now());
    if (known.size > MAX_KNOWN) known.delete(known.keys().next().value!);
  };

  /** The pass of a request sent with `key`; a leader's also releases those waiting for it. */
  const passFor = (key: string, leader?: Leader): SharedPrefixPass => {
    let reported = false;
    return (began) => {
      if (reported) return;
      reported = true;
      if (began) remember(key);
      if (leader) {
        // A leader that took too long may have been replaced (see `lead`): the new one stays.
        if (leaders.get(key) === leader) leaders.delete(key);
        leader.release();
      }
    };
  };

  const lead = (key: string): SharedPrefixPass => {
    let release!: () => void;
    const leader: Leader = { begun: new Promise<void>((resolve) => (release = resolve)), release: () => release() };
    leaders.set(key, leader);
    return passFor(key, leader);
  };

  const admit = (key: string, deadline: number, signal: AbortSignal | undefined, canLead: () => boolean): SharedPrefixPass | Promise<SharedPrefixPass> => {
    if (isKnown(key)) return passFor(key);
    const leader = leaders.get(key);
    // A request whose own part is long begins late: it goes at once, and nothing waits for it.
    if (leader === undefined) return canLead() ? lead(key) : passFor(key);
    const left = deadline - now();
    // Waited as long as allowed for a leader that has not begun (a hung connection, retries):
    // this request takes the lead, so that later ones wait for it rather than for the stale one.
    if (left <= 0) return canLead() ? lead(key) : passFor(key);
    return waitFor(leader.begun, left, signal).then(() => admit(key, deadline, signal, canLead));
  };

  return {
    enter(request, signal) {
      if (options.maxWaitMs <= 0 || (request.system.length === 0 && request.tools.length === 0)) return ignore;
      const prefix = prefixOf(request);
      // Unreadable as JSON (a cyclic schema): not gated, so the SDK fails the request as it would.
      if (prefix === undefined || prefix.tokens < options.minimumTokens) return ignore;
      // A native output format is a system prompt of the API's own, ahead of the cached prefix.
      const key = request.outputFormat === undefined ? prefix.key : `${prefix.key}/${hash(JSON.stringify(request.outputFormat))}`;
      let short: boolean | undefined;
      const canLead = () => (short ??= messagesWithin(request.messages, options.maxLeaderTokens * 4));
      return admit(key, now() + options.maxWaitMs, signal, canLead);
    },
    get state() {
      return { leaders: leaders.size, known: known.size };
    },
  };
}

/**
 * The part of a request the API caches before the messages: the tools that are not deferred, then
 * the system prompt (the model is the adapter's own, the same for every request of the gate). The
 * key is a hash of its JSON; its size is estimated at four characters a token, low for JSON
 * schemas (about three), so a prefix near the API's minimum is let through rather than waited for.
 */
function describePrefix(request: ModelRequest): Prefix {
  const tools: RequestTool[] = [];
  for (const tool of request.tools) if (!isDeferredTool(tool)) tools.push(tool);
  const json = JSON.stringify([tools, request.system.map((block) => block.text)]);
  return { key: hash(json), tokens: Math.floor(json.length / 4) };
}

/** Whether the messages' JSON is at most `chars` characters long (stops counting past it). */
function messagesWithin(messages: ModelRequest['messages'], chars: number): boolean {
  let length = 0;
  for (const message of messages) {
    length += typeof message.content === 'string' ? message.content.length : JSON.stringify(message.content).length;
    if (length > chars) return false;
  }
  return true;
}

/** The prefix's key: a 64-bit hash of its JSON, with its length. */
function hash(text: string): string {
  const { fnv, mixed } = twoLaneHash(text, 0x01000193 ^ text.length);
  return `${fnv}${mixed}:${text.length}`;
}

/** Resolves when `leader` does or `ms` have passed (at most about 24.8 days: a timer's limit); rejects with the signal's reason when it aborts first. */
function waitFor(leader: Promise<void>, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
    };
    const aborted = () => {
      done();
      reject(signal!.reason);
    };
    const timer = setTimeout(
      () => {
        done();
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    (timer as { unref?: () => void }).unref?.();
    signal?.addEventListener('abort', aborted, { once: true });
    void leader.then(() => {
      done();
      resolve();
    });
  });
}
