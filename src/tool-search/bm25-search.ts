import type { SearchableTool } from './searchable-tool.js';
import { tokenize } from './tokenize.js';

/** How much a term in each field counts (BM25F-style weighting). */
const FIELD_WEIGHTS = { name: 3, description: 1, argumentNames: 1, argumentDescriptions: 0.5 } as const;
const K1 = 1.2;
const B = 0.75;

interface IndexedTool {
  name: string;
  /** Weighted term frequencies. */
  frequencies: Map<string, number>;
  /** Weighted length. */
  length: number;
}

/** A BM25 index over tools, built once and searched many times. */
export class Bm25ToolIndex {
  readonly #tools: IndexedTool[] = [];
  readonly #documentFrequency = new Map<string, number>();
  #totalLength = 0;

  /** Adds tools to the index (in catalog order, which breaks ties). */
  add(tools: readonly SearchableTool[]): void {
    for (const tool of tools) {
      const frequencies = new Map<string, number>();
      let length = 0;
      const count = (text: string, weight: number) => {
        for (const term of tokenize(text)) {
          frequencies.set(term, (frequencies.get(term) ?? 0) + weight);
          length += weight;
        }
      };
      count(tool.name, FIELD_WEIGHTS.name);
      count(tool.description, FIELD_WEIGHTS.description);
      for (const name of tool.argumentNames) count(name, FIELD_WEIGHTS.argumentNames);
      for (const description of tool.argumentDescriptions) count(description, FIELD_WEIGHTS.argumentDescriptions);
      for (const term of frequencies.keys()) this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1);
      this.#tools.push({ name: tool.name, frequencies, length });
      this.#totalLength += length;
    }
  }

  /**
   * The names of the best-scoring tools for a natural-language query, best first (ties in
   * catalog order); tools sharing no term with the query are never returned.
   */
  search(query: string, limit: number): string[] {
    const terms = [...new Set(tokenize(query))];
    const count = this.#tools.length;
    if (terms.length === 0 || count === 0) return [];
    const averageLength = this.#totalLength / count || 1;
    const scored: Array<{ name: string; score: number; position: number }> = [];
    this.#tools.forEach((tool, position) => {
      let score = 0;
      for (const term of terms) {
        const frequency = tool.frequencies.get(term);
        if (!frequency) continue;
        const documents = this.#documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (count - documents + 0.5) / (documents + 0.5));
        score += (idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * tool.length) / averageLength));
      }
      if (score > 0) scored.push({ name: tool.name, score, position });
    });
    scored.sort((left, right) => right.score - left.score || left.position - right.position);
    return scored.slice(0, limit).map((entry) => entry.name);
  }
}
