/**
 * A stored entry's JSON text read as the loaders read it: the object it holds, or undefined when
 * it is not JSON or not a JSON object (such an element is skipped with a load warning).
 */
export function parseEntryText(text: string): object | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}
