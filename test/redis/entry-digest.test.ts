import { describe, expect, it } from 'vitest';
import type { SessionEntry } from 'agent-harness';
import { entryDigest } from '../../src/redis/entry-digest.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';

describe('entryDigest', () => {
  it('is stable across versions: the Redis store keeps it per entry id and compares a copy against it', () => {
    expect(entryDigest({ kind: 'message', id: 'e1', at: 't', message: { role: 'user', content: 'Hello, ünïcode ✓' } } as never)).toBe('a2fbae59f6a3b382');
  });

  it('is the same for the same entry under another number, key order aside, and differs for other content', () => {
    const entry = entryMaker('d').userText('hello');
    const copy = { ...entry, seq: 9, parentId: 'elsewhere' } as SessionEntry;
    const reordered = Object.fromEntries(Object.entries(entry).reverse()) as SessionEntry;
    expect(entryDigest(copy)).toBe(entryDigest(entry));
    expect(entryDigest(reordered)).toBe(entryDigest(entry));
    expect(entryDigest(entry)).toMatch(/^[0-9a-f]{16}$/);
    expect(entryDigest({ ...entryMaker('d').userText('hellp'), id: entry.id } as SessionEntry)).not.toBe(entryDigest(entry));
  });
});
