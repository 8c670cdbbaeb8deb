/**
 * `settled(await call())`, or `failed(cause)` when the call throws or its promise rejects, without
 * a promise or a microtask when the call gives a plain value: a host's check that answers at once
 * is then read in the same tick (a decision that awaits nothing is made synchronously). A thenable
 * is read as `await` reads it: its `then` once (one that throws when read is a failure, too).
 * @returns what `settled` or `failed` returns, or a promise of it when the call gave a thenable.
 */
export function callNowOrLater<T, R>(call: () => T | PromiseLike<T>, settled: (value: T) => R, failed: (cause: unknown) => R): R | Promise<R> {
  let value: T | PromiseLike<T>;
  let then: unknown;
  try {
    value = call();
    then = (typeof value === 'object' && value !== null) || typeof value === 'function' ? (value as { then?: unknown }).then : undefined;
  } catch (cause) {
    return failed(cause);
  }
  if (typeof then !== 'function') return settled(value as T);
  const thenable = value as PromiseLike<T>;
  return new Promise<T>((resolve, reject) => void (then as PromiseLike<T>['then']).call(thenable, resolve, reject)).then(settled, failed);
}
