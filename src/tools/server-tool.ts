import { ConfigurationError } from '../errors/configuration-error.js';
import type { ServerToolDefinition } from '../model/model.js';

/**
 * A provider server tool in the agent's tool list: the provider runs it within its own response
 * (web search, code execution, ...), so the loop never executes it; the model adapter passes the
 * definition through unchanged. Create one with {@link serverTool}.
 */
export interface ServerTool {
  readonly type: 'server-tool';
  /** The name in the provider's `server_tool_use` blocks. */
  readonly name: string;
  /** The definition as sent to the provider. */
  readonly definition: ServerToolDefinition;
}

/**
 * Declares a provider server tool for `createAgent({ tools })`.
 * @throws ConfigurationError when `type` or `name` is missing.
 * @example
 * const webSearch = serverTool({ type: 'web_search_20250305', name: 'web_search', max_uses: 3 });
 */
export function serverTool(definition: ServerToolDefinition): ServerTool {
  if (typeof definition?.type !== 'string' || definition.type === '' || definition.type === 'custom') {
    throw new ConfigurationError(`serverTool() needs the provider's tool type with its version, e.g. { type: 'web_search_20250305', name: 'web_search' }; got type ${JSON.stringify(definition?.type)}.`);
  }
  if (typeof definition.name !== 'string' || definition.name === '') {
    throw new ConfigurationError(`serverTool({ type: '${definition.type}' }) needs the tool's name, e.g. 'web_search'.`);
  }
  return { type: 'server-tool', name: definition.name, definition: { ...definition } };
}

/** True for a value made by {@link serverTool}. */
export function isServerTool(value: unknown): value is ServerTool {
  return typeof value === 'object' && value !== null && (value as ServerTool).type === 'server-tool' && typeof (value as ServerTool).definition === 'object';
}
