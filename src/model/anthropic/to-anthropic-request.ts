import type { ContentBlock, Message, TextBlock } from '../messages.js';
import type { ModelRequest, ToolDefinition } from '../model.js';
import type { AnthropicThinkingConfig } from './anthropic-model-options.js';

const ephemeral = { type: 'ephemeral' } as const;

/** Block types the API refuses a `cache_control` on. */
const uncacheableBlockTypes = new Set(['thinking', 'redacted_thinking']);

/** The per-model settings that shape every request body. */
export interface AnthropicRequestSettings {
  model: string;
  maxTokens: number;
  promptCaching: boolean;
  thinking?: AnthropicThinkingConfig | undefined;
  temperature?: number | undefined;
  stopSequences?: string[] | undefined;
  extraBody?: Record<string, unknown> | undefined;
}

/** A Messages API request body, in wire shape. */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  system?: TextBlock[];
  tools?: Array<ToolDefinition & { cache_control?: typeof ephemeral }>;
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
  const body: AnthropicRequestBody = {
    ...settings.extraBody,
    model: settings.model,
    max_tokens: settings.maxTokens,
    ...(system.length > 0 ? { system: buildSystem(system, settings.promptCaching) } : {}),
    ...(tools.length > 0 ? { tools: buildTools(tools, settings.promptCaching) } : {}),
    messages: settings.promptCaching ? withCachedLastMessage(messages) : [...messages],
    ...(settings.thinking !== undefined ? { thinking: settings.thinking } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.stopSequences !== undefined ? { stop_sequences: settings.stopSequences } : {}),
    stream: true,
  };
  return body;
}

function buildSystem(system: TextBlock[], promptCaching: boolean): TextBlock[] {
  const blocks = system.map((block) => ({ ...block }));
  const last = blocks[blocks.length - 1];
  if (promptCaching && last && last.text !== '' && !last.cache_control) last.cache_control = ephemeral;
  return blocks;
}

function buildTools(tools: ToolDefinition[], promptCaching: boolean): NonNullable<AnthropicRequestBody['tools']> {
  const built = tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.input_schema }));
  const last = built[built.length - 1];
  return promptCaching && last ? [...built.slice(0, -1), { ...last, cache_control: ephemeral }] : built;
}

function withCachedLastMessage(messages: readonly Message[]): Message[] {
  const copy = messages.slice();
  const last = copy[copy.length - 1];
  if (!last) return copy;
  const content: ContentBlock[] =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  const lastBlock = content[content.length - 1];
  if (!lastBlock || !isCacheable(lastBlock)) return copy;
  const markedBlock = { ...lastBlock, cache_control: ephemeral } as ContentBlock;
  copy[copy.length - 1] = { ...last, content: [...content.slice(0, -1), markedBlock] } as Message;
  return copy;
}

function isCacheable(block: ContentBlock): boolean {
  if (uncacheableBlockTypes.has(block.type)) return false;
  if (block.type === 'text' && (block as TextBlock).text === '') return false;
  return !('cache_control' in block && block.cache_control);
}
