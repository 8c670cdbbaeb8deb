/**
 * Whether a value is a promise (or any thenable): what a tool, a hook step or a tool source gave
 * back may be either, and awaiting a plain value would cost a promise and a microtask for nothing.
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
