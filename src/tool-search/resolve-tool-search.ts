import { ConfigurationError } from '../errors/configuration-error.js';
import type { ToolSearchSupport } from '../model/model.js';
import type { ToolSearchVariant } from './tool-search-server-tool.js';

/**
 * How the agent lets the model find deferred tools:
 * - `'auto'`: the provider's tool search (BM25 variant) when the model runs it, else the
 *   client-side `ToolSearch` tool;
 * - `'regex'` / `'bm25'`: the provider's tool search of that variant;
 * - `'client'`: the client-side `ToolSearch` tool, answering with `tool_reference` blocks where the
 *   model expands them and with the tools' definitions as text elsewhere.
 */
export type ToolSearchMode = 'auto' | ToolSearchVariant | 'client';

/** The mechanism chosen for one agent. */
export type ResolvedToolSearch =
  | { kind: 'server'; variant: ToolSearchVariant }
  | {
      kind: 'client';
      /** The model expands `tool_reference` blocks, so deferred tools are sent with `defer_loading`. */
      references: boolean;
    };

const MODES: readonly string[] = ['auto', 'regex', 'bm25', 'client'];

/**
 * Chooses the tool search mechanism from the agent's `toolSearch` option and what the model supports.
 * @throws ConfigurationError for an unknown mode, or a server variant the model does not run.
 */
export function resolveToolSearch(mode: ToolSearchMode, support: ToolSearchSupport, modelId: string): ResolvedToolSearch {
  if (!MODES.includes(mode)) {
    throw new ConfigurationError(`createAgent: toolSearch must be 'auto', 'regex', 'bm25' or 'client', got ${JSON.stringify(mode)}.`);
  }
  if (mode === 'client') return { kind: 'client', references: support !== 'none' };
  if (mode === 'auto') return support === 'server' ? { kind: 'server', variant: 'bm25' } : { kind: 'client', references: support === 'tool-reference' };
  if (support !== 'server') {
    throw new ConfigurationError(
      `createAgent: toolSearch '${mode}' is the provider's server-side tool search, which model "${modelId}" does not run (its capabilities.toolSearch is '${support}'). Use toolSearch: 'client' (or 'auto'), or a model that runs it (anthropicModel({ toolSearch: 'server' }) when you know it does).`,
    );
  }
  return { kind: 'server', variant: mode };
}
