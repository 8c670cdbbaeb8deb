/**
 * Stores dropped without `close()`, each with what closes its writers: run once the store is
 * collected. The closure keeps the writers (their open transcripts) reachable until then, so no
 * file handle is left for the garbage collector to close (which Node warns of, DEP0137, and
 * means to make an error), and the locks those writers hold are let go instead of blocking the
 * session for every other store until the process exits.
 */
const abandoned = new FinalizationRegistry<() => void>((closeWriters) => closeWriters());

/**
 * Runs `closeWriters` once `store` is collected. It must not reach `store` itself (it would then
 * never be collected); it may reach everything the store's methods share.
 */
export function closeWhenCollected(store: object, closeWriters: () => void): void {
  abandoned.register(store, closeWriters);
}
