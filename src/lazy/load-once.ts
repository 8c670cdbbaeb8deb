/** A loader made by {@link loadOnce}: call it to load (or share the load); `loaded` is the value once it has loaded. */
export interface LoadOnce<T> {
  (): Promise<T>;
  /** The loaded value, for a caller that must not wait a tick once it is there; `undefined` until the load settles well. */
  readonly loaded: T | undefined;
}

/**
 * A loader for code that is needed only when a capability is first used (a dynamic `import()`, so
 * a bundler splits it into a chunk of its own that a browser loads then, not up front). The first
 * call starts the load and later calls share it; a load that failed (a chunk briefly unreachable
 * during a deploy, a dropped connection in a browser, a missing optional package) is forgotten, so
 * the next use tries again rather than failing forever.
 * @param load - Loads the module, e.g. `() => import('./compact-history.js')`.
 */
export function loadOnce<T>(load: () => Promise<T>): LoadOnce<T> {
  let loading: Promise<T> | undefined;
  let loaded: T | undefined;
  const loader = () =>
    (loading ??= load().then(
      (value) => (loaded = value),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return Object.defineProperty(loader, 'loaded', { get: () => loaded, enumerable: true }) as LoadOnce<T>;
}
