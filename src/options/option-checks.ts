import { ConfigurationError } from '../errors/configuration-error.js';
import { MAX_TIMER_MS } from '../types/max-timer-ms.js';
import { nearestName } from './nearest-name.js';
import { describeOptionValue } from '../errors/describe-option-value.js';
import { checkOptions, isObject, optionProblem, type CheckOptionsContext, type OptionCheck, type OptionPlace, type OptionsSpec } from './check-options.js';

/** A check from what the option accepts (said after "must be") and a test of the value. */
export function accepts(expected: string, test: (value: unknown) => boolean): OptionCheck {
  return (value, place) => {
    if (!test(value)) throw new ConfigurationError(optionProblem(place, expected, value));
  };
}

/** The same check, for an option that must be given. */
export function required(check: OptionCheck): OptionCheck {
  return Object.assign((value: unknown, place: OptionPlace) => check(value, place), { required: true });
}

/** Anything is accepted (the option is checked where it is used, or takes any value). */
export const anything: OptionCheck = () => undefined;

export const isString = accepts('a string', (value) => typeof value === 'string');
export const isNonEmptyString = accepts('a non-empty string', (value) => typeof value === 'string' && value.trim() !== '');
export const isBoolean = accepts('true or false', (value) => typeof value === 'boolean');
export const isFunction = accepts('a function', (value) => typeof value === 'function');
export const isPlainObject = accepts('an object', isObject);
export const isFiniteNumber = accepts('a finite number', (value) => typeof value === 'number' && Number.isFinite(value));
export const isPositiveNumber = accepts('a positive number', (value) => typeof value === 'number' && Number.isFinite(value) && value > 0);
export const isPositiveInteger = accepts('a positive integer', (value) => Number.isInteger(value) && (value as number) > 0);
export const isNonNegativeInteger = accepts('an integer of 0 or more', (value) => Number.isInteger(value) && (value as number) >= 0);
/** A timeout a timer can wait: Node fires one longer than 2^31-1 ms after 1 ms. */
export const isTimerMs = accepts(`a positive number of milliseconds, at most ${MAX_TIMER_MS} (about 24.8 days: a timer fires at once past it)`, (value) => typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS);
export const isAbortSignal = accepts('an AbortSignal', (value) => isObject(value) && typeof value.aborted === 'boolean' && typeof value.addEventListener === 'function');

/** Names as prose: `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * An object (a class instance too: methods may live on its prototype) with the `methods` a
 * contract needs, and whose `optionalMethods`, when present, are functions. The message names
 * what is missing and how to make the right value.
 * @param what - What the option takes and how to get one, e.g. `a session store (memorySessionStore())`.
 * @param methods - The methods it must have.
 * @param optionalMethods - The methods it may leave out, but not set to something else.
 */
export function withMethods(what: string, methods: readonly string[], optionalMethods: readonly string[] = []): OptionCheck {
  const expected = `${what}, an object with the method${methods.length > 1 ? 's' : ''} ${listed(methods)}`;
  return (value, place) => {
    if (!isObject(value)) throw new ConfigurationError(optionProblem(place, expected, value));
    const missing = methods.filter((method) => typeof value[method] !== 'function');
    const wrong = optionalMethods.filter((method) => value[method] !== undefined && typeof value[method] !== 'function');
    if (missing.length === 0 && wrong.length === 0) return;
    const problems = [
      ...(missing.length ? [`it has no ${listed(missing)} method${missing.length > 1 ? 's' : ''}`] : []),
      ...(wrong.length ? [`its ${listed(wrong)} ${wrong.length > 1 ? 'are not functions' : 'is not a function'}`] : []),
    ];
    throw new ConfigurationError(`${place.owner}: \`${place.path}\` must be ${expected}; ${problems.join(', and ')} (got ${describeOptionValue(value)}).`);
  };
}

/** A `SessionStore`: what a run appends its transcript with and a resume loads it from. */
export const isSessionStore = withMethods(
  'a session store (memorySessionStore(), fileSessionStore({ dir }) from agent-harness/node, or your own implementing SessionStore)',
  ['append', 'load', 'list', 'delete'],
  ['close', 'listPending'],
);

/** A `PlanStore`: where plans are saved and read back. */
export const isPlanStore = withMethods('a plan store (memoryPlanStore(), filePlanStore({ dir }) from agent-harness/node, or your own implementing PlanStore)', ['read', 'write', 'exists', 'list']);

/** An OpenTelemetry tracer, as `TracerLike` describes it. */
export const isTracer = withMethods("an OpenTelemetry tracer (trace.getTracer('my-app') from @opentelemetry/api)", ['startActiveSpan']);

/** One of the listed values, e.g. `oneOf(['read', 'edit'])`; a mistyped string gets the nearest one. */
export function oneOf(values: readonly unknown[]): OptionCheck {
  const expected = `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`;
  const names = values.filter((value): value is string => typeof value === 'string');
  return (value, place) => {
    if (values.includes(value)) return;
    const near = typeof value === 'string' ? nearestName(value, names) : undefined;
    throw new ConfigurationError(`${optionProblem(place, expected, value)}${near === undefined ? '' : ` Did you mean ${JSON.stringify(near)}?`}`);
  };
}

/** An array whose every item passes `item` (items are named `path[i]`). */
export function arrayOf(item: OptionCheck, expected = 'an array'): OptionCheck {
  return (value, place) => {
    if (!Array.isArray(value)) throw new ConfigurationError(optionProblem(place, expected, value));
    value.forEach((element, index) => {
      const at = { owner: place.owner, path: `${place.path}[${index}]` };
      if (element === undefined) throw new ConfigurationError(optionProblem(at, 'given', element));
      item(element, at);
    });
  };
}

export const isStringArray = arrayOf(isString, 'an array of strings');

/** A value schema: a zod schema (3 or 4), a Standard Schema validator (an object, or a function such as an ArkType type) or a JSON Schema object. */
export const isSchema = accepts('a zod schema, a Standard Schema validator or a JSON Schema object', (value) => {
  if (typeof value === 'function') return '~standard' in value;
  return typeof value === 'object' && value !== null && !Array.isArray(value);
});

/** Session entries: an array, or any iterable or async iterable of them. */
export const isEntrySource = accepts('an array or (async) iterable of session entries', (value) => {
  if (typeof value !== 'object' || value === null) return false;
  return Symbol.iterator in value || Symbol.asyncIterator in value;
});

/** An object whose every value passes `item` (e.g. prices by model id). */
export function recordOf(item: OptionCheck, expected = 'an object'): OptionCheck {
  return (value, place) => {
    if (!isObject(value)) throw new ConfigurationError(optionProblem(place, expected, value));
    for (const [key, element] of Object.entries(value)) {
      if (element !== undefined) item(element, { owner: place.owner, path: `${place.path}.${key}` });
    }
  };
}

/** A nested options object, checked like the top level: unknown keys get the nearest name. */
export function shape<T>(spec: OptionsSpec<T>, context: Pick<CheckOptionsContext, 'hints' | 'usage'> = {}): OptionCheck {
  return (value, place) => checkOptions(value, spec, Object.assign({}, context, { owner: place.owner, path: place.path }));
}

/** The first check that accepts the value wins; otherwise the message says every accepted form. */
export function either(expected: string, ...checks: OptionCheck[]): OptionCheck {
  return (value, place) => {
    for (const check of checks) {
      try {
        check(value, place);
        return;
      } catch (error) {
        if (!ConfigurationError.isInstance(error)) throw error;
      }
    }
    throw new ConfigurationError(optionProblem(place, expected, value));
  };
}
