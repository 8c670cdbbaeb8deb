import { duplicateToolNameMessage } from './duplicate-tool-name.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { wellFormedText } from '../model/code-point-boundary.js';
import type { RequestTool, ToolDefinition } from '../model/model.js';
import { wellFormedValue } from '../model/well-formed-value.js';
import { createToolSearchTool, DeferredToolCatalog, toolSearchServerTool, type ResolvedToolSearch } from '../tool-search/index.js';
import type { ServerTool } from '../tools/server-tool.js';
import type { Tool } from '../tools/types.js';

const NO_SERVER_TOOLS: readonly ServerTool[] = Object.freeze([]);

/** Options of {@link Toolbox}. */
export interface ToolboxOptions {
  /** Function tools in the agent's order: the host's, then those of tool sources, then built-ins. */
  tools: readonly Tool[];
  /** The host's provider server tools. */
  serverTools?: readonly ServerTool[];
  /** How deferred tools are found; required when a tool is deferred. */
  search?: ResolvedToolSearch;
}

/**
 * Tool definitions by input schema object, shared by every agent: tools are copied per agent (the
 * built-ins, say) but keep their compiled schema, so a new agent per request reuses the same
 * definition objects, and what is computed from them once (their token estimates) stays computed.
 */
const definitions = new WeakMap<object, ToolDefinition[]>();
/** Definitions kept per schema object (a schema reused under many names or descriptions stops being cached past it). */
const MAX_DEFINITIONS_PER_SCHEMA = 8;

function definitionOf(tool: Tool): ToolDefinition {
  // A hand-made tool object without a schema object is passed on as it is (and not cached).
  if (typeof tool.jsonSchema !== 'object' || tool.jsonSchema === null) return makeDefinition(tool);
  const known = definitions.get(tool.jsonSchema);
  const found = known?.find((definition) => definition.name === tool.name && definition.description === tool.description && definition.type === tool.providerType);
  if (found) return found;
  const definition = makeDefinition(tool);
  if (!known) definitions.set(tool.jsonSchema, [definition]);
  else if (known.length < MAX_DEFINITIONS_PER_SCHEMA) known.push(definition);
  return definition;
}

/**
 * A tool's definition for the request. Descriptions and schemas may come from an MCP server: a
 * lone surrogate in them (which the Messages API refuses) would fail every request of the
 * session, so it becomes U+FFFD here, for the model only (calls are still checked with the schema as given).
 */
function makeDefinition(tool: Tool): ToolDefinition {
  const description = typeof tool.description === 'string' ? wellFormedText(tool.description) : tool.description;
  return { name: tool.name, description, input_schema: wellFormedValue(tool.jsonSchema), ...(tool.providerType ? { type: tool.providerType } : {}) };
}

/**
 * The tools of one agent: the function tools it executes (by name) and the tool list sent with
 * every request, in a fixed order: tools that are loaded, the client-side `ToolSearch` when it is
 * used, provider server tools (the tool search server tool among them), then deferred tools with
 * `defer_loading` (left out for models that cannot take them). Tools arriving mid-session are
 * deferred and appended, so the part of the list the model reads never changes.
 */
export class Toolbox {
  /** Every function tool by name, deferred ones included (a call to any of them is executed). */
  readonly byName = new Map<string, Tool>();
  /** The request's tool list (grows only by deferred tools at its end). */
  readonly definitions: RequestTool[];
  /** The deferred tools, searchable; undefined when no tool search is set up. */
  readonly catalog: DeferredToolCatalog | undefined;
  readonly search: ResolvedToolSearch | undefined;
  /** The host's provider server tools (not the tool search server tool, which `search` adds). */
  readonly serverTools: readonly ServerTool[];

  /** @throws ConfigurationError for two tools of one name, or deferred tools without a search. */
  constructor(options: ToolboxOptions) {
    const deferred = options.tools.filter((tool) => tool.deferLoading === true);
    if (deferred.length > 0 && !options.search) {
      throw new ConfigurationError(`Tools ${deferred.map((tool) => `"${tool.name}"`).join(', ')} are deferred, but no tool search is set up to find them.`);
    }
    this.search = options.search;
    this.serverTools = options.serverTools ?? NO_SERVER_TOOLS;
    this.catalog = options.search ? new DeferredToolCatalog(deferred.map(definitionOf)) : undefined;
    const loaded = options.tools.filter((tool) => tool.deferLoading !== true);
    if (this.search?.kind === 'client') loaded.push(createToolSearchTool({ catalog: this.catalog!, references: this.search.references }));
    for (const tool of [...loaded, ...deferred]) {
      if (this.byName.has(tool.name)) {
        throw new ConfigurationError(duplicateToolNameMessage(tool.name));
      }
      this.byName.set(tool.name, tool);
    }
    const server = [...this.serverTools.map((tool) => tool.definition), ...(this.search?.kind === 'server' ? [toolSearchServerTool(this.search.variant)] : [])];
    for (const definition of server) {
      if (this.byName.has(definition.name) || server.filter((other) => other.name === definition.name).length > 1) {
        throw new ConfigurationError(`Two tools are named "${definition.name}" (a provider server tool among them). Tool names must be unique.`);
      }
    }
    this.definitions = [...loaded.map(definitionOf), ...server, ...this.#sendable(deferred)];
  }

  /**
   * Takes tools that arrived after the tool list was fixed (an MCP server's list change): they
   * become reachable through tool search, deferred; without a tool search they wait for the next
   * session. Names already taken are skipped.
   * @returns the names of the tools added.
   */
  addLateTools(tools: readonly Tool[]): string[] {
    if (!this.catalog) return [];
    const fresh = tools.filter((tool) => !this.byName.has(tool.name) && !this.definitions.some((definition) => definition.name === tool.name));
    const deferred = fresh.map((tool) => (tool.deferLoading ? tool : { ...tool, deferLoading: true }));
    for (const tool of deferred) this.byName.set(tool.name, tool);
    this.catalog.add(deferred.map(definitionOf));
    this.definitions.push(...this.#sendable(deferred));
    return deferred.map((tool) => tool.name);
  }

  /** Deferred tools as the request carries them: with `defer_loading`, or not at all. */
  #sendable(deferred: readonly Tool[]): ToolDefinition[] {
    const send = this.search?.kind === 'server' || (this.search?.kind === 'client' && this.search.references);
    return send ? deferred.map((tool) => ({ ...definitionOf(tool), defer_loading: true })) : [];
  }
}
