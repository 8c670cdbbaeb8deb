import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import {
  arrayOf,
  checkOptions,
  describeOptionValue,
  either,
  isAbortSignal,
  isBoolean,
  isEntrySource,
  isNonEmptyString,
  isPositiveInteger,
  isString,
  oneOf,
  recordOf,
  required,
  shape,
  type OptionsSpec,
} from '../../src/options/index.js';

interface Options {
  name: string;
  retries?: number;
  mode?: 'fast' | 'slow';
  tags?: string[];
  nested?: { allow?: string[]; deny?: string[] };
  prices?: Record<string, number>;
  verbose?: boolean;
}

const spec: OptionsSpec<Options> = {
  name: required(isNonEmptyString),
  retries: isPositiveInteger,
  mode: oneOf(['fast', 'slow']),
  tags: arrayOf(isString, 'an array of strings'),
  nested: shape<{ allow?: string[]; deny?: string[] }>({ allow: arrayOf(isString), deny: arrayOf(isString) }),
  prices: recordOf(isPositiveInteger),
  verbose: isBoolean,
};

const check = (options: unknown, hints?: Record<string, string>) => () => checkOptions<Options>(options, spec, { owner: 'connect', usage: "connect({ name: 'db' })", ...(hints ? { hints } : {}) });

describe('checkOptions', () => {
  it('accepts valid options, and absent optional ones', () => {
    expect(check({ name: 'db' })).not.toThrow();
    expect(check({ name: 'db', retries: 2, mode: 'slow', tags: ['a'], nested: { allow: [] }, prices: { a: 1 }, verbose: false })).not.toThrow();
    expect(check({ name: 'db', retries: undefined })).not.toThrow();
  });

  it('names an unknown option with the nearest valid name', () => {
    expect(check({ name: 'db', retry: 2 })).toThrow('`retry` is not an option of connect; did you mean `retries`?');
    expect(check({ name: 'db', verbose_: true })).toThrow('did you mean `verbose`?');
  });

  it('lists the options when nothing is near, and reports an unknown key even when its value is undefined', () => {
    expect(check({ name: 'db', colour: 'red' })).toThrow('`colour` is not an option of connect. Its options are: name, retries, mode, tags, nested, prices, verbose.');
    expect(check({ name: 'db', colour: undefined })).toThrow(ConfigurationError);
  });

  it('prefers a hint for a name from another library', () => {
    expect(check({ name: 'db', timeoutMs: 1 }, { timeoutMs: 'set the timeout on the driver.' })).toThrow('`timeoutMs` is not an option of connect; set the timeout on the driver.');
  });

  it('checks types and values, naming the option, what it accepts and what it got', () => {
    expect(check({ name: 'db', verbose: 'false' })).toThrow('connect: `verbose` must be true or false, got the string "false".');
    expect(check({ name: 'db', retries: 1.5 })).toThrow('connect: `retries` must be a positive integer, got 1.5.');
    expect(check({ name: 'db', mode: 'fats' })).toThrow('connect: `mode` must be one of "fast", "slow", got the string "fats". Did you mean "fast"?');
    expect(check({ name: 'db', mode: 3 })).toThrow('connect: `mode` must be one of "fast", "slow", got 3.');
    expect(check({ name: 'db', tags: 'a' })).toThrow('connect: `tags` must be an array of strings, got the string "a".');
    expect(check({ name: 'db', tags: ['a', 2] })).toThrow('connect: `tags[1]` must be a string, got 2.');
    expect(check({ name: 'db', tags: ['a', undefined] })).toThrow('connect: `tags[1]` must be given, got undefined.');
    expect(check({ name: 'db', prices: { a: 0 } })).toThrow('connect: `prices.a` must be a positive integer, got 0.');
  });

  it('checks nested objects like the top level', () => {
    expect(check({ name: 'db', nested: { allowed: [] } })).toThrow('`nested.allowed` is not an option of connect; did you mean `nested.allow`?');
    expect(check({ name: 'db', nested: { deny: [1] } })).toThrow('connect: `nested.deny[0]` must be a string, got 1.');
    expect(check({ name: 'db', nested: ['x'] })).toThrow('connect: `nested` must be an object, got ["x"].');
  });

  it('requires required options and an options object', () => {
    expect(check({})).toThrow("connect: `name` is required, as in connect({ name: 'db' }).");
    expect(check('db')).toThrow("connect takes an options object, such as connect({ name: 'db' }); got the string \"db\".");
    expect(check(null)).toThrow('got null');
    expect(check(undefined)).toThrow('got undefined');
    expect(() => checkOptions<Options>(undefined, spec, { owner: 'connect', optional: true })).not.toThrow();
  });

  it('reports the first bad option in the spec\'s order, whatever order the options were written in', () => {
    // Given last to first: verbose, prices, tags, mode, retries — all wrong, name missing.
    const backwards = { verbose: 'yes', prices: { a: -1 }, tags: [1], mode: 'warp', retries: 0 };
    expect(check(backwards)).toThrow(/`name` is required/);
    expect(check({ ...backwards, name: 'db' })).toThrow(/`retries`/);
    expect(check({ verbose: 'yes', prices: { a: -1 }, tags: [1], mode: 'warp', name: 'db' })).toThrow(/`mode`/);
    expect(check({ verbose: 'yes', prices: { a: -1 }, name: 'db', tags: [1] })).toThrow(/`tags/);
    expect(check({ verbose: 'yes', name: 'db', prices: { a: -1 } })).toThrow(/`prices/);
  });

  it('only looks at own keys, so inherited ones do not count', () => {
    const options = Object.create({ inherited: true }) as Record<string, unknown>;
    options.name = 'db';
    expect(check(options)).not.toThrow();
  });

  it('either: the first accepted form wins; otherwise all forms are named', () => {
    const idOrList = either('an id or a list of ids', isNonEmptyString, arrayOf(isString));
    expect(() => idOrList('a', { owner: 'x', path: 'ids' })).not.toThrow();
    expect(() => idOrList(['a'], { owner: 'x', path: 'ids' })).not.toThrow();
    expect(() => idOrList(3, { owner: 'x', path: 'ids' })).toThrow('x: `ids` must be an id or a list of ids, got 3.');
  });

  it('recognises signals and entry sources', () => {
    const place = { owner: 'x', path: 'y' };
    expect(() => isAbortSignal(new AbortController().signal, place)).not.toThrow();
    expect(() => isAbortSignal({ aborted: 'no' }, place)).toThrow(ConfigurationError);
    expect(() => isEntrySource([], place)).not.toThrow();
    expect(() => isEntrySource((async function* () {})(), place)).not.toThrow();
    expect(() => isEntrySource({ length: 0 }, place)).toThrow(ConfigurationError);
  });
});

describe('describeOptionValue', () => {
  it('says what a value is, briefly, and never throws', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeOptionValue('x')).toBe('the string "x"');
    expect(describeOptionValue(() => 1)).toBe('a function');
    expect(describeOptionValue(new Map())).toBe('a Map');
    expect(describeOptionValue(Symbol('s'))).toBe('a symbol');
    expect(describeOptionValue(10n)).toBe('the bigint 10');
    expect(describeOptionValue({ a: 1 })).toBe('{"a":1}');
    expect(describeOptionValue(Object.create(null))).toBe('{}');
    expect(() => describeOptionValue(cyclic)).not.toThrow();
    expect(describeOptionValue('y'.repeat(1000)).length).toBeLessThan(80);
  });
});
