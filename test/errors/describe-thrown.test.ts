import { describe, expect, it } from 'vitest';
import { describeThrown, toError } from '../../src/errors/describe-thrown.js';

const throwingToString = {
  toString() {
    throw new Error('no string for you');
  },
};
const throwingToPrimitive = {
  [Symbol.toPrimitive]() {
    throw new Error('no primitive for you');
  },
};
class BrokenMessage extends Error {
  override get message(): string {
    throw new Error('no message for you');
  }
}

describe('describeThrown', () => {
  it.each<[string, unknown, string]>([
    ['an Error', new TypeError('bad input'), 'bad input'],
    ['a string', 'plain words', 'plain words'],
    ['a number', 42, '42'],
    ['a bigint', 1n, '1'],
    ['undefined', undefined, 'undefined'],
    ['null', null, 'null'],
    ['a symbol', Symbol('marker'), 'Symbol(marker)'],
    ['a plain object', { code: 1 }, '[object Object]'],
    ['Object.create(null)', Object.create(null), 'a thrown object with no text form'],
    ['an object whose toString throws', throwingToString, 'a thrown object with no text form'],
    ['an object whose Symbol.toPrimitive throws', throwingToPrimitive, 'a thrown object with no text form'],
    ['an Error whose message getter throws', new BrokenMessage(), 'a thrown object with no text form'],
    ['a proxy whose prototype cannot be read', new Proxy({}, { getPrototypeOf: () => { throw new Error('trap'); } }), 'a thrown object with no text form'],
  ])('%s', (_name, value, expected) => {
    expect(describeThrown(value)).toBe(expected);
  });
});

describe('toError', () => {
  it('returns an Error itself', () => {
    const error = new RangeError('out');
    expect(toError(error)).toBe(error);
  });

  it.each<[string, unknown, string]>([
    ['a string', 'plain words', 'plain words'],
    ['Object.create(null)', Object.create(null), 'a thrown object with no text form'],
    ['an object whose toString throws', throwingToString, 'a thrown object with no text form'],
  ])('wraps %s, keeping it as the cause', (_name, value, message) => {
    const error = toError(value);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe(message);
    expect(error.cause).toBe(value);
  });
});
