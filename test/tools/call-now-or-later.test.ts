import { describe, expect, it } from 'vitest';
import { callNowOrLater } from '../../src/tools/call-now-or-later.js';

const settled = (value: unknown) => `settled ${String(value)}`;
const failed = (cause: unknown) => `failed ${cause instanceof Error ? cause.message : String(cause)}`;

describe('callNowOrLater', () => {
  it('hands a plain value over in the same tick, without a promise', () => {
    expect(callNowOrLater(() => 'yes', settled, failed)).toBe('settled yes');
    expect(callNowOrLater(() => undefined, settled, failed)).toBe('settled undefined');
    // An object without a then is a plain value too.
    expect(callNowOrLater(() => ({ behavior: 'ask' }), (value) => value.behavior, failed)).toBe('ask');
  });

  it('a throw goes to failed at once', () => {
    expect(
      callNowOrLater(
        () => {
          throw new Error('bug');
        },
        settled,
        failed,
      ),
    ).toBe('failed bug');
  });

  it('a promise or any thenable is read once it settles, as await reads it', async () => {
    const later = callNowOrLater(() => Promise.resolve('later'), settled, failed);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe('settled later');
    expect(await callNowOrLater(() => Promise.reject(new Error('no')), settled, failed)).toBe('failed no');
    // A thenable of the host's own, calling back later.
    const thenable = { then: (resolve: (value: string) => void) => setTimeout(() => resolve('custom'), 0) };
    expect(await callNowOrLater(() => thenable as unknown as PromiseLike<string>, settled, failed)).toBe('settled custom');
    // A then that throws when called rejects, as with await.
    const throwing = { then: () => { throw new Error('then broke'); } };
    expect(await callNowOrLater(() => throwing as unknown as PromiseLike<string>, settled, failed)).toBe('failed then broke');
  });

  it('reads a then once, and a then that throws when read is a failure, given at once', () => {
    let reads = 0;
    const counted = { get then() { reads++; return undefined; } };
    expect(callNowOrLater(() => counted, () => 'plain', failed)).toBe('plain');
    expect(reads).toBe(1);
    const hostile = { get then(): never { throw new Error('getter'); } };
    expect(callNowOrLater(() => hostile, settled, failed)).toBe('failed getter');
  });
});
