/** A store broke the contract a conformance case checks. */
export class StoreConformanceFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConformanceFailure';
  }
}

/** A short, readable rendering of a value for failure messages. */
export function show(value: unknown): string {
  if (value instanceof Error) return `${value.name}${'code' in value ? ` (code ${JSON.stringify((value as { code?: unknown }).code)})` : ''}: ${value.message}`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text;
}

/** @throws StoreConformanceFailure with `message` when `condition` is false. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new StoreConformanceFailure(message);
}

/** JSON with object keys sorted, so stores that reorder keys (e.g. jsonb) still compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Where two texts first differ, with what each holds around it. */
function firstDifference(actual: string, expected: string): string {
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) at += 1;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 60));
  return `first difference at character ${at}: expected …${around(expected)}…, got …${around(actual)}…`;
}

/** @throws StoreConformanceFailure when `actual` and `expected` differ as JSON (key order aside). */
export function checkSameJson(actual: unknown, expected: unknown, what: string): void {
  const left = canonical(actual);
  const right = canonical(expected);
  if (left === right) return;
  throw new StoreConformanceFailure(`${what}: expected ${show(expected)}, got ${show(actual)} (${firstDifference(left, right)}).`);
}

/**
 * @throws StoreConformanceFailure when the JSON texts `actual` and `expected` differ at all (key
 * order included), with `cure` after where they differ.
 */
export function checkSameJsonText(actual: string, expected: string, what: string, cure: string): void {
  if (actual === expected) return;
  throw new StoreConformanceFailure(`${what} (${firstDifference(actual, expected)}). ${cure}`);
}

/**
 * Awaits a promise that must reject with an error `accept` recognizes.
 * @returns the error.
 * @throws StoreConformanceFailure when it resolves, or rejects with something else.
 */
export async function checkRejects(promise: Promise<unknown>, accept: (error: unknown) => boolean, what: string): Promise<unknown> {
  let outcome: { error: unknown } | undefined;
  try {
    await promise;
  } catch (error) {
    outcome = { error };
  }
  if (outcome === undefined) throw new StoreConformanceFailure(`${what}, but it succeeded.`);
  if (!accept(outcome.error)) throw new StoreConformanceFailure(`${what}, but it failed otherwise: ${show(outcome.error)}`);
  return outcome.error;
}

/** The code of an agent-harness error (or of any error with a string `code`). */
export function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}
