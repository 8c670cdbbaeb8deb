import { isDeferredTool } from '../is-deferred-tool.js';
import type { ContentBlock, Message, TextBlock } from '../messages.js';
import { isServerToolDefinitionUnchecked, type ModelRequest, type RequestTool, type ToolDefinition } from '../model.js';
import type { AnthropicContextManagement, AnthropicEffort, AnthropicThinkingConfig } from './anthropic-model-options.js';

const ephemeral = { type: 'ephemeral' } as const;
const oneHour = { type: 'ephemeral', ttl: '1h' } as const;


/** The per-model settings that shape every request body. */
export interface AnthropicRequestSettings {
  model: string;
  maxTokens: number;
  promptCaching: boolean;
  /** The lifetime of the adapter's breakpoints when not five minutes. */
  cacheTtl?: '1h' | undefined;
  thinking?: AnthropicThinkingConfig | undefined;
  temperature?: number | undefined;
  stopSequences?: string[] | undefined;
  extraBody?: Record<string, unknown> | undefined;
  contextManagement?: AnthropicContextManagement | undefined;
  structuredOutput?: boolean | undefined;
  effort?: AnthropicEffort | undefined;
}

/** A Messages API request body, in wire shape. */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  system?: TextBlock[];
  tools?: Array<AnthropicToolParam>;
  messages: Message[];
  stream: true;
  [key: string]: unknown;
}

/**
 * Builds the streaming request body for one turn. The caller's messages are not mutated: with
 * prompt caching on, only the last message and its last block are copied to carry the breakpoint,
 * and the rest of the history is shared by reference. The system + tools part depends on nothing
 * but `request.system` and `request.tools`, so it is byte-identical from turn to turn.
 * @param request - the loop's request.
 * @param settings - model id, token limit, caching and pass-through fields.
 */
export function toAnthropicRequest(request: ModelRequest, settings: AnthropicRequestSettings): AnthropicRequestBody {
  const { system, tools, messages } = request;
  const plan = planBreakpoints(request, settings.promptCaching, settings.cacheTtl);
  // Object.assign keeps the spread's order and precedence (extraBody first, overridden by what
  // follows) without its cost on Node 20: a spread followed by new keys makes a new hidden class
  // per request (see bench/README.md, ninth round).
  const body: AnthropicRequestBody = Object.assign({}, settings.extraBody, {
    model: settings.model,
    max_tokens: settings.maxTokens,
    ...(system.length > 0 ? { system: buildSystem(system, plan.system ? plan.marker : undefined) } : {}),
    ...(tools.length > 0 ? { tools: buildTools(tools, plan.tools ? plan.marker : undefined) } : {}),
    messages: plan.messages ? withCachedMessages(messages, plan.marker, plan.anchor) : [...messages],
    ...(settings.thinking !== undefined ? { thinking: settings.thinking } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.stopSequences !== undefined ? { stop_sequences: settings.stopSequences } : {}),
    ...(settings.contextManagement !== undefined ? { context_management: settings.contextManagement } : {}),
    stream: true as const,
  });
  const outputConfig = outputConfigOf(request, settings);
  if (outputConfig !== undefined) body.output_config = outputConfig;
  return body;
}

/**
 * The request's `output_config`: what `extraBody` gives, the adapter's `effort` and the typed
 * output's `format`, merged (each set alone used to replace the others' whole object).
 */
function outputConfigOf(request: ModelRequest, settings: AnthropicRequestSettings): Record<string, unknown> | undefined {
  const format = request.outputFormat !== undefined && settings.structuredOutput !== false ? request.outputFormat : undefined;
  const given = settings.extraBody?.output_config;
  if (format === undefined && settings.effort === undefined) return undefined;
  const config: Record<string, unknown> = typeof given === 'object' && given !== null && !Array.isArray(given) ? { ...(given as Record<string, unknown>) } : {};
  if (settings.effort !== undefined) config.effort = settings.effort;
  if (format !== undefined) config.format = format;
  return config;
}

/** The request fields the token counting endpoint takes (it refuses `max_tokens`, `stream`, sampling). */
const countTokensFields = ['model', 'messages', 'system', 'tools', 'thinking', 'tool_choice', 'context_management', 'mcp_servers', 'output_config'];

/**
 * Builds the body of a token counting request (`POST /v1/messages/count_tokens`) for `request`:
 * the same system, tools, messages and thinking as a turn would send, without cache breakpoints
 * of the adapter's own (they do not change the count) and without the fields the endpoint refuses.
 * @param request - the loop's request.
 * @param settings - model id and pass-through fields.
 */
export function toCountTokensRequest(request: ModelRequest, settings: AnthropicRequestSettings): Record<string, unknown> {
  const full = toAnthropicRequest(request, { ...settings, promptCaching: false }) as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const field of countTokensFields) if (full[field] !== undefined) body[field] = full[field];
  return body;
}

/** A tool as the request carries it: a custom tool with its schema, or a provider's native tool. */
export type AnthropicToolParam =
  | (Omit<ToolDefinition, 'type'> & { cache_control?: CacheMarker })
  | { type: string; name: string; defer_loading?: boolean; cache_control?: CacheMarker; [key: string]: unknown };

/** The API takes at most this many `cache_control` breakpoints per request. */
const MAX_BREAKPOINTS = 4;

type CacheMarker = { type: 'ephemeral'; ttl?: '5m' | '1h' };

/**
 * Which breakpoints to add, within the API's limit of four counting the caller's own: the system
 * prompt first, then the tools, then the latest message, then the anchor (the message the
 * previous request ended with; see {@link withCachedMessages}), given up first. When the caller
 * already uses a one-hour breakpoint, ours are one-hour too (a 5m breakpoint may not precede a 1h one).
 */
function planBreakpoints(request: ModelRequest, promptCaching: boolean, ttl: '1h' | undefined) {
  const none = { system: false, tools: false, messages: false, anchor: false, marker: ephemeral as CacheMarker };
  if (!promptCaching) return none;
  const existing: CacheMarker[] = [];
  const collect = (block: unknown) => {
    const marker = (block as { cache_control?: CacheMarker | null }).cache_control;
    if (marker) existing.push(marker);
    const content = (block as { content?: unknown }).content;
    if (Array.isArray(content)) content.forEach(collect);
  };
  request.system.forEach(collect);
  request.tools.forEach(collect);
  for (const message of request.messages) if (Array.isArray(message.content)) message.content.forEach(collect);
  let budget = MAX_BREAKPOINTS - existing.length;
  const take = () => budget-- > 0;
  // One-hour entries when asked for, unless the caller's five-minute breakpoints would then come
  // before one of ours (the API refuses a 1h breakpoint after a 5m one).
  const hour = existing.some((found) => found.ttl === '1h') || (ttl === '1h' && !existing.some((found) => found.ttl !== '1h'));
  const marker: CacheMarker = hour ? oneHour : ephemeral;
  const systemMarked = request.system.length > 0 && !request.system.at(-1)!.cache_control && request.system.at(-1)!.text !== '';
  return {
    system: systemMarked && take(),
    // Deferred tools are not part of the cached prefix: the breakpoint goes on the last one that is.
    tools: request.tools.some((tool) => !isDeferredTool(tool)) && take(),
    messages: take(),
    anchor: take(),
    marker,
  };
}

function buildSystem(system: TextBlock[], marker: CacheMarker | undefined): TextBlock[] {
  const blocks = system.map((block) => ({ ...block }));
  const last = blocks[blocks.length - 1];
  if (marker && last) last.cache_control = marker;
  return blocks;
}

/**
 * The wire tool list: function tools with their three fields (and `defer_loading` when set), a
 * function tool that implements a provider type (the memory tool) as that native type, provider
 * server tools exactly as given. The breakpoint marks the last tool that is not deferred.
 */
function buildTools(tools: RequestTool[], marker: CacheMarker | undefined): AnthropicToolParam[] {
  const built: AnthropicToolParam[] = tools.map((tool): AnthropicToolParam => {
    if (isServerToolDefinitionUnchecked(tool)) return { ...tool };
    const deferred = tool.defer_loading === true ? { defer_loading: true } : {};
    // A provider tool (e.g. the memory tool) is sent as its native type; the API knows its schema.
    if (tool.type !== undefined && tool.type !== 'custom') return { type: tool.type, name: tool.name, ...deferred };
    return { name: tool.name, description: tool.description, input_schema: tool.input_schema, ...deferred };
  });
  if (!marker) return built;
  for (let index = built.length - 1; index >= 0; index--) {
    if (isDeferredTool(tools[index]!)) continue;
    built[index] = Object.assign({}, built[index]!, { cache_control: marker });
    break;
  }
  return built;
}

/**
 * Marks the last cacheable block (walking back past blocks that take none) of the last message,
 * and with `anchor` of the message before the latest assistant message: where the previous
 * request of the loop ended, and so where it wrote its last cache entry. The API looks for a
 * cached prefix at a breakpoint and up to 20 blocks before it; a turn that adds more (a dozen
 * parallel tool calls and their results) would otherwise put the previous entry out of reach and
 * write the whole history to the cache again, at the price of a write instead of a read. A
 * message whose block already carries a breakpoint (the caller's) is left as it is. Only the
 * messages marked are copied.
 */
function withCachedMessages(messages: readonly Message[], marker: CacheMarker, anchor: boolean): Message[] {
  const copy = messages.slice();
  const last = copy.length - 1;
  if (last < 0) return copy;
  markLastCacheable(copy, last, marker);
  if (anchor) {
    let assistant = last;
    while (assistant >= 0 && copy[assistant]!.role !== 'assistant') assistant--;
    if (assistant >= 1) markLastCacheable(copy, assistant - 1, marker);
  }
  return copy;
}

/** Puts `marker` on the last cacheable block of `messages[index]` (a copy of it), unless one there is marked already. */
function markLastCacheable(messages: Message[], index: number, marker: CacheMarker): void {
  const message = messages[index]!;
  const content: ContentBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  for (let position = content.length - 1; position >= 0; position--) {
    const block = content[position]!;
    if ('cache_control' in block && block.cache_control) return;
    if (!isCacheable(block)) continue;
    const marked = [...content];
    marked[position] = Object.assign({}, block, { cache_control: marker }) as ContentBlock;
    messages[index] = Object.assign({}, message, { content: marked }) as Message;
    return;
  }
}

/** Block types known to take a breakpoint; others (thinking, beta blocks) are passed over. */
const cacheableBlockTypes = new Set(['text', 'image', 'document', 'tool_use', 'tool_result', 'server_tool_use', 'tool_search_tool_result', 'search_result']);

function isCacheable(block: ContentBlock): boolean {
  if (!cacheableBlockTypes.has(block.type)) return false;
  return !(block.type === 'text' && (block as TextBlock).text === '');
}
