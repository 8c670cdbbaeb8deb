import { commonPrefixLength } from './common-prefix-length.js';

/** How names are compared: case, `_`, `-` and spaces do not count (`input_schema` is `inputSchema`). */
function normalize(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, '');
}

/** Edit distance with adjacent transpositions (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const distance: number[][] = Array.from({ length: rows }, (_, row) => Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)));
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(distance[row - 1]![column]! + 1, distance[row]![column - 1]! + 1, distance[row - 1]![column - 1]! + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        best = Math.min(best, distance[row - 2]![column - 2]! + 1);
      }
      distance[row]![column] = best;
    }
  }
  return distance[a.length]![b.length]!;
}

/** Names longer than this are not compared (a pasted blob is nobody's typo). */
const MAX_COMPARED_LENGTH = 64;

/**
 * The candidate a mistyped name most likely meant, or `undefined` when none is close: the same
 * name in another case or spelling (`input_schema` → `inputSchema`), a small typo (about one
 * edit per three letters: `maxTurn` → `maxTurns`, `Raed` → `Read`), a name that starts with
 * the other (`systemPrompt` → `system`), or one that shares most of its start (`retry` → `retries`). Ties go to the earlier candidate.
 * @example nearestName('systemPrompt', ['model', 'system', 'tools']) // 'system'
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  if (name.length > MAX_COMPARED_LENGTH) return undefined;
  const wanted = normalize(name);
  if (wanted === '') return undefined;
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const known = normalize(candidate);
    if (known === wanted) return candidate;
    if (known === '' || known.length > MAX_COMPARED_LENGTH) continue;
    const distance = editDistance(wanted, known);
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, known.length) / 3));
    const shorter = Math.min(wanted.length, known.length);
    const prefix = shorter >= 4 && (wanted.startsWith(known) || known.startsWith(wanted));
    // Most of the shorter name starts the other (`retry` → `retries`): a wrong ending.
    const sameStart = commonPrefixLength(wanted, known) >= Math.max(4, Math.ceil(shorter * 0.8));
    // A prefix counts as two edits and a shared start as three, so a real typo of the same name still wins.
    const score = Math.min(distance <= limit ? distance : Number.POSITIVE_INFINITY, prefix ? 2 : sameStart ? 3 : Number.POSITIVE_INFINITY);
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
