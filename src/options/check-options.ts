import { ConfigurationError } from '../errors/configuration-error.js';
import { describeOptionValue } from '../errors/describe-option-value.js';
import { nearestName } from './nearest-name.js';

/** Where an option sits, for error messages. */
export interface OptionPlace {
  /** The call whose options these are, e.g. `createAgent`. */
  readonly owner: string;
  /** The option's path, e.g. `maxTurns` or `rules.allow`. */
  readonly path: string;
}

/**
 * Checks one option's value (never `undefined`: absent options are not checked) and throws a
 * {@link ConfigurationError} naming the option, what it accepts and what it got.
 */
export interface OptionCheck {
  (value: unknown, place: OptionPlace): void;
  /** The option must be given. */
  readonly required?: boolean;
}

/** One check per option of `T`: a key added to the options type must get a check, or this fails to compile. */
export type OptionsSpec<T> = { readonly [K in keyof T]-?: OptionCheck };

/** How {@link checkOptions} reports a problem. */
export interface CheckOptionsContext {
  /** The call whose options these are, e.g. `createAgent` or `defineTool (tool "search")`. */
  owner: string;
  /**
   * Advice for names users bring from other libraries (the Claude Agent SDK's `allowedTools`,
   * say), by key: what to write instead. Shown instead of the nearest name.
   * @default {}
   */
  hints?: Readonly<Record<string, string>>;
  /**
   * How a correct call looks, for a value that is not an options object at all.
   * @default `${owner}({ ... })`
   */
  usage?: string;
  /**
   * The options object itself may be left out.
   * @default false
   */
  optional?: boolean;
  /**
   * Where these options sit inside a bigger one (for nested objects such as `rules`).
   * @default '' (the top level)
   */
  path?: string;
}

/** A plain object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message of an option whose value does not fit: "createAgent: `maxTurns` must be …, got …." */
export function optionProblem(place: OptionPlace, expected: string, value: unknown): string {
  return `${place.owner}: \`${place.path}\` must be ${expected}, got ${describeOptionValue(value)}.`;
}

/**
 * Checks an options object against its spec: every key must be a known option (an unknown one is
 * reported with the nearest valid name, or the hint for a name from another library), every
 * given value must pass its check, and required options must be there.
 * @throws ConfigurationError naming the first bad option and the fix.
 * @example
 * checkOptions(options, { name: required(isString), retries: isNonNegativeInteger }, { owner: 'connect' });
 */
export function checkOptions<T>(options: unknown, spec: OptionsSpec<T>, context: CheckOptionsContext): asserts options is T {
  const prefix = context.path ? `${context.path}.` : '';
  if (options === undefined && context.optional) return;
  if (!isObject(options)) {
    if (context.path) throw new ConfigurationError(optionProblem({ owner: context.owner, path: context.path }, context.usage ?? 'an object', options));
    throw new ConfigurationError(`${context.owner} takes an options object, such as ${context.usage ?? `${context.owner}({ ... })`}; got ${describeOptionValue(options)}.`);
  }
  const { keys: known, order, required } = layoutOf(spec);
  // Only the options given (and the required ones) are visited, in the spec's order: the same
  // checks and the same first error as walking every option, for a few lookups instead of ~50.
  const visit: string[] = [...required];
  for (const key in options) {
    if (!Object.hasOwn(options, key)) continue;
    if (!Object.hasOwn(spec, key)) throw new ConfigurationError(unknownOptionMessage(key, known, context, prefix));
    if (!spec[key as keyof typeof spec].required) visit.push(key);
  }
  // Insertion sort in place: a handful of keys, where Array#sort would allocate a work array on
  // every createAgent (at most ~50 keys, so the quadratic worst case stays small).
  for (let index = 1; index < visit.length; index++) {
    const key = visit[index]!;
    const rank = order.get(key)!;
    let slot = index;
    while (slot > 0 && order.get(visit[slot - 1]!)! > rank) {
      visit[slot] = visit[slot - 1]!;
      slot--;
    }
    visit[slot] = key;
  }
  const checks = spec as Readonly<Record<string, OptionCheck>>;
  for (const key of visit) {
    const check = checks[key]!;
    const value = options[key];
    // Most options are absent: no place (and no path string) is made for them, as this runs on every createAgent.
    if (value === undefined) {
      if (check.required) throw new ConfigurationError(`${context.owner}: \`${prefix}${key}\` is required${context.usage ? `, as in ${context.usage}` : ''}.`);
      continue;
    }
    check(value, { owner: context.owner, path: `${prefix}${key}` });
  }
}

/** A spec's option names, their order and the required ones, worked out once per spec (specs are module-level constants). */
interface SpecLayout {
  keys: readonly string[];
  order: ReadonlyMap<string, number>;
  required: readonly string[];
}
const layouts = new WeakMap<object, SpecLayout>();
function layoutOf(spec: object): SpecLayout {
  let layout = layouts.get(spec);
  if (!layout) {
    const keys = Object.keys(spec);
    const checks = spec as Readonly<Record<string, OptionCheck>>;
    layout = { keys, order: new Map(keys.map((key, index) => [key, index])), required: keys.filter((key) => checks[key]!.required) };
    layouts.set(spec, layout);
  }
  return layout;
}

function unknownOptionMessage(key: string, known: readonly string[], context: CheckOptionsContext, prefix: string): string {
  const start = `\`${prefix}${key}\` is not an option of ${context.owner}`;
  const hint = context.hints && Object.hasOwn(context.hints, key) ? context.hints[key] : undefined;
  if (hint !== undefined) return `${start}; ${hint}`;
  const near = nearestName(key, known);
  if (near !== undefined) return `${start}; did you mean \`${prefix}${near}\`?`;
  return `${start}. Its options are: ${known.map((name) => `${prefix}${name}`).join(', ')}.`;
}
