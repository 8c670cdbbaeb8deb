/**
 * A schema object (a zod schema, say) that is built the first time anything reads it, then kept:
 * for schemas the library exports as values (`PlanSchema`, `TodoSchema`), which built at module
 * scope would cost every cold `import('agent-harness')` their construction, also in hosts that
 * never use them. Every read, `in`, `instanceof` and property listing goes to the built schema;
 * its methods run on it (`PlanSchema.parse(…)`, `PlanSchema.extend(…)`, nesting in `z.array`).
 * Writing to it is refused: a schema is read-only here.
 */
export function schemaBuiltOnFirstUse<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  /** Methods bound once per function, so `PlanSchema.parse === PlanSchema.parse`. */
  const bound = new WeakMap<Function, Function>();
  return new Proxy(Object.create(null) as T, {
    get(_target, key) {
      const target = schema();
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(value);
      if (method === undefined) bound.set(value, (method = value.bind(target)));
      return method;
    },
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor(_target, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // Reported configurable: the proxy's own (empty) target holds none of them.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}
