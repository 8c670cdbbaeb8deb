/** Loads shared per owner object (a pool, a client) and key (a schema, a key prefix): see {@link oncePerKey}. */
export type OncePerKey<T> = WeakMap<object, Map<string, Promise<T>>>;

/**
 * The load of `owner` and `key` in `table`, started with `load` when there is none: the first
 * caller starts it and later callers share it, as `loadOnce` does for one load. One that
 * fails is forgotten, so the next caller starts its own `load` (a store that migrates after one
 * that only checked); deleting the key from the owner's map does the same for one that succeeded.
 */
export function oncePerKey<T>(table: OncePerKey<T>, owner: object, key: string, load: () => Promise<T>): Promise<T> {
  let loads = table.get(owner);
  if (loads === undefined) table.set(owner, (loads = new Map()));
  const known = loads.get(key);
  if (known !== undefined) return known;
  const started: Promise<T> = load().catch((error: unknown) => {
    if (loads.get(key) === started) loads.delete(key);
    throw error;
  });
  loads.set(key, started);
  return started;
}
