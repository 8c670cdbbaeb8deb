import { describe, expect, it } from 'vitest';
import { twoLaneHash } from '../../src/ids/two-lane-hash.js';

describe('twoLaneHash', () => {
  it('gives the values stored digests and statement names were made of (a change would break what earlier versions stored)', () => {
    expect(twoLaneHash('', 7)).toEqual({ fnv: '811c9dc5', mixed: '00000007' });
    expect(twoLaneHash('Hello, ünïcode ✓', 0x01000193 ^ 16)).toEqual({ fnv: 'bf74cb6e', mixed: '20f2182f' });
    // The name the PostgreSQL store prepares a statement under (prepared-pool.ts).
    const statement = 'SELECT seq, body FROM "ah"."entries" WHERE session_id = $1 ORDER BY seq';
    const { fnv, mixed } = twoLaneHash(statement, 0x050c5d1f);
    expect(`agent_harness_${mixed}${fnv}`).toBe('agent_harness_905d79f7b516ed24');
  });

  it('differs for one code unit changed, and for another basis', () => {
    expect(twoLaneHash('notes-1.md', 1)).not.toEqual(twoLaneHash('notes-2.md', 1));
    expect(twoLaneHash('notes-1.md', 1).mixed).not.toBe(twoLaneHash('notes-1.md', 2).mixed);
    expect(twoLaneHash('notes-1.md', 1).fnv).toBe(twoLaneHash('notes-1.md', 2).fnv);
  });
});
