import { findModelEntry } from './find-model-entry.js';
import { usageProblem, type Usage } from './usage.js';
import { ConfigurationError } from '../errors/configuration-error.js';

/** Prices in US dollars per million tokens. */
export interface ModelPrice {
  /** Uncached input. */
  input: number;
  /** Output. */
  output: number;
  /** Writing to the prompt cache. @default 1.25 × input */
  cacheWrite?: number;
  /** Reading from the prompt cache. @default 0.1 × input */
  cacheRead?: number;
}

/**
 * Built-in list prices by model id prefix (USD per million tokens). The longest matching prefix
 * wins; hosts override or extend it with the `prices` option. A model not listed has no cost
 * estimate (`costUsd` undefined) and `maxBudgetUsd` cannot stop it: pass its price in `prices`.
 * Frozen, entries too: extend it with `prices`, not by changing it.
 */
export const DEFAULT_PRICES: Readonly<Record<string, Readonly<ModelPrice>>> = deepFreeze({
  'claude-opus-4-6': { input: 5, output: 25 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4-0': { input: 15, output: 75 },
  'claude-opus-4-2025': { input: 15, output: 75 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-3-5-sonnet': { input: 3, output: 15 },
  'claude-3-opus': { input: 15, output: 75 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
});

function deepFreeze<T extends Record<string, object>>(table: T): Readonly<T> {
  for (const entry of Object.values(table)) Object.freeze(entry);
  return Object.freeze(table);
}

/** Finds the price for a model id: the longest matching prefix of the table. */
export function findPrice(modelId: string, table: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined {
  return findModelEntry(modelId, table);
}

/**
 * Estimated cost in US dollars of some usage at a price.
 * @throws ConfigurationError when `usage` holds no token counts or `price` no prices (a model
 *   missing from the table looked up there, say), naming which.
 */
export function estimateCost(usage: Usage, price: ModelPrice): number {
  // One check, by the function that words the error: a string price would be coerced below, and
  // a negative one would give a negative cost.
  const problem = costProblem(usage, price);
  if (problem !== undefined) throw new ConfigurationError(problem);
  const perToken = 1 / 1_000_000;
  const cost =
    usage.inputTokens * price.input * perToken +
    usage.outputTokens * price.output * perToken +
    usage.cacheCreationInputTokens * (price.cacheWrite ?? price.input * 1.25) * perToken +
    usage.cacheReadInputTokens * (price.cacheRead ?? price.input * 0.1) * perToken;
  if (!Number.isFinite(cost)) throw new ConfigurationError(`estimateCost(usage, price): the cost of these counts at these prices is too large to be a number; got ${cost}.`);
  return cost;
}

const PRICE_FIELDS = ['input', 'output', 'cacheWrite', 'cacheRead'] as const;

/** A value as an error message quotes it. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (typeof value !== 'object' || value === null) return String(value);
  return Array.isArray(value) ? 'an array' : 'an object without that field';
}

/** Why `estimateCost` could not price `usage` at `price`, or `undefined` when it can. */
function costProblem(usage: unknown, price: unknown): string | undefined {
  const start = 'estimateCost(usage, price)';
  if (typeof price !== 'object' || price === null) {
    return `${start} needs a price in US dollars per million tokens, such as { input: 3, output: 15 } (DEFAULT_PRICES lists the built-in ones by model id prefix); got ${describeValue(price)}.`;
  }
  for (const field of PRICE_FIELDS) {
    const value = (price as Record<string, unknown>)[field];
    if (value === undefined && (field === 'cacheWrite' || field === 'cacheRead')) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${start}: price.${field} must be a price in US dollars per million tokens (a finite number, 0 or more); got ${describeValue(value)}.`;
  }
  const problem = usageProblem(usage);
  return problem === undefined ? undefined : `${start}: ${problem}.`;
}
