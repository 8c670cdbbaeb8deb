/**
 * Whether a value nests arrays and objects deeper than `maxDepth` levels, checked without
 * recursion (so a hostile value cannot overflow the stack). Anything else is a leaf, `undefined`
 * included (a store that keeps entries as objects may hold optional fields set to it).
 */
export function nestingDepthOver(value: unknown, maxDepth: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= maxDepth) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child !== 'object' || child === null) continue;
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}
