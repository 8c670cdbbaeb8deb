/**
 * A loader for code that is needed only when a capability is first used (a dynamic `import()`, so
 * a bundler splits it into a chunk of its own that a browser loads then, not up front). The first
 * call starts the load and later calls share it; a load that failed (a chunk briefly unreachable
 * during a deploy, a dropped connection in a browser) is forgotten, so the next use tries again
 * rather than failing forever.
 * @param load - Loads the module, e.g. `() => import('./compact-history.js')`.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
