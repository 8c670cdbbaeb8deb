import { createHash } from 'node:crypto';

/** A cache breakpoint's lifetime. */
export type CacheTtl = '5m' | '1h';

/** One block of a request in the order the API caches prefixes: tools, system, messages. */
export interface RequestSegment {
  /** Tokens of this block, by the server's own count. */
  tokens: number;
  /** Tokens of the prefix up to and including this block. */
  prefixTokens: number;
  /** Hash of the prefix up to and including this block (model and cache-relevant settings included). */
  prefixKey: string;
  /** The block's breakpoint, when it carries `cache_control` (or is the last block under a top-level one). */
  breakpoint?: CacheTtl;
}

/** A request cut into segments, with its total token count. */
export interface RequestSegments {
  segments: RequestSegment[];
  /** Tokens of the whole request. */
  totalTokens: number;
}

/** Tokens per message for the role framing. */
const messageFraming = 3;

/**
 * The server's token count of one block: a quarter token per character of its JSON without
 * `cache_control`, at least one. Deterministic and independent of the client's estimate.
 */
export function blockTokens(json: string): number {
  return Math.max(1, Math.ceil(json.length / 4));
}

/**
 * Cuts a request body into the segments prompt caching works on: each tool definition, each
 * system block, each message content block (string content is one block), in that order. Each
 * segment's key hashes the prefix through it, starting from the model id, as the API documents:
 * - `output_config.format` enters before the system blocks (structured output adds a system
 *   prompt of its own: "changing the `output_config.format` parameter will invalidate any prompt
 *   cache for that conversation thread"), so a change of it misses the system and the messages,
 *   not the tools;
 * - `tool_choice`, `thinking` and `output_config.effort` enter before the first message, so
 *   changing them invalidates cached messages but not cached tools and system.
 * A top-level `cache_control` (automatic caching) puts a breakpoint on the last block.
 * @param body - the parsed request body.
 */
export function requestSegments(body: Record<string, unknown>): RequestSegments {
  const hash = createHash('sha256').update(`model:${String(body.model)}\n`);
  const segments: RequestSegment[] = [];
  let total = 0;
  const add = (block: unknown, extraTokens = 0) => {
    const { json, ttl } = canonical(block);
    hash.update(json).update('\n');
    const tokens = blockTokens(json) + extraTokens;
    total += tokens;
    segments.push({ tokens, prefixTokens: total, prefixKey: hash.copy().digest('hex'), ...(ttl ? { breakpoint: ttl } : {}) });
  };
  for (const tool of asArray(body.tools)) add(tool);
  const outputConfig = (typeof body.output_config === 'object' && body.output_config !== null ? body.output_config : {}) as { format?: unknown; effort?: unknown };
  if (outputConfig.format !== undefined) hash.update(`format:${JSON.stringify(outputConfig.format)}\n`);
  if (typeof body.system === 'string') add({ type: 'text', text: body.system });
  else for (const block of asArray(body.system)) add(block);
  hash.update(`settings:${JSON.stringify([body.tool_choice ?? null, body.thinking ?? null, outputConfig.effort ?? null])}\n`);
  for (const message of asArray(body.messages) as Array<{ role?: unknown; content?: unknown }>) {
    hash.update(`role:${String(message?.role)}\n`);
    const content = message?.content;
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : asArray(content);
    blocks.forEach((block, position) => add(block, position === 0 ? messageFraming : 0));
  }
  const automatic = body.cache_control as { ttl?: unknown } | undefined;
  const last = segments[segments.length - 1];
  if (automatic && typeof automatic === 'object' && last && !last.breakpoint) last.breakpoint = automatic.ttl === '1h' ? '1h' : '5m';
  return { segments, totalTokens: total };
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * The block's JSON without any `cache_control`, and its breakpoint: a marker on the block or on
 * a block nested in it (a tool result's content) makes the block a breakpoint.
 */
function canonical(block: unknown): { json: string; ttl: CacheTtl | undefined } {
  let ttl: CacheTtl | undefined;
  const json =
    JSON.stringify(block, (key, value: unknown) => {
      if (key !== 'cache_control') return value;
      if (value && typeof value === 'object') ttl = ttl === '1h' || (value as { ttl?: unknown }).ttl === '1h' ? '1h' : '5m';
      return undefined;
    }) ?? 'null';
  return { json, ttl };
}
