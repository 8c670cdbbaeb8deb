/**
 * A value built the first time it is asked for with a key, then kept for the last `max` keys (the
 * oldest goes first). For the zod input schemas of built-in tools that vary with an agent's
 * settings (the `Agent` tool's subagent types, `ReadToolOutput`'s page size): agents with the same
 * settings share one schema object, so its JSON Schema is made once (`compileInputSchema` keeps it
 * per schema object) and zod's parser for it generated once, instead of per `createAgent` (a
 * quarter of a millisecond each).
 */
export function builtOncePerKey<K, V>(build: (key: K) => V, max: number): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(key, (value = build(key)));
    }
    return value;
  };
}
