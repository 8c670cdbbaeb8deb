import type { ToolDefinition } from '../model/model.js';
import { Bm25ToolIndex } from './bm25-search.js';
import { regexSearch, type RegexSearchResult } from './regex-search.js';
import { searchableTool, type SearchableTool } from './searchable-tool.js';

/**
 * The deferred tools of one agent, searchable. Tools join it in a fixed order (the agent's tool
 * order, then tools a server announces mid-session); none ever leaves, so a name found once stays
 * valid for the session.
 */
export class DeferredToolCatalog {
  readonly #definitions = new Map<string, ToolDefinition>();
  readonly #searchable: SearchableTool[] = [];
  readonly #index = new Bm25ToolIndex();

  constructor(definitions: readonly ToolDefinition[] = []) {
    this.add(definitions);
  }

  /** How many tools the catalog holds. */
  get size(): number {
    return this.#definitions.size;
  }

  /** The definitions, in catalog order. */
  definitions(): ToolDefinition[] {
    return [...this.#definitions.values()];
  }

  /** The definition of a tool by name. */
  get(name: string): ToolDefinition | undefined {
    return this.#definitions.get(name);
  }

  /** Adds tools not there yet (by name); returns those added. */
  add(definitions: readonly ToolDefinition[]): ToolDefinition[] {
    const added = definitions.filter((definition) => !this.#definitions.has(definition.name));
    for (const definition of added) this.#definitions.set(definition.name, definition);
    const searchable = added.map(searchableTool);
    this.#searchable.push(...searchable);
    this.#index.add(searchable);
    return added;
  }

  /** Natural-language search (BM25 over names, descriptions and arguments), best first. */
  searchKeywords(query: string, limit: number): ToolDefinition[] {
    return this.#index.search(query, limit).map((name) => this.#definitions.get(name)!);
  }

  /** Regular-expression search in the Messages API's dialect (Python `re.search`). */
  searchRegex(pattern: string, limit: number): RegexSearchResult {
    return regexSearch(this.#searchable, pattern, limit);
  }
}
