/**
 * A value built the first time it is asked for, then kept. For the zod schemas of built-in and
 * optional tools: built at module scope, they cost every cold `import('agent-harness')` their
 * construction (zod 4 builds a schema eagerly, and each `.describe()` or `.optional()` is one
 * more), also in hosts that never use the tool.
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}
