import { describe, expect, it } from 'vitest';
import {
  dropFileCheckpoints,
  fileCheckpointsForgotten,
  listFileCheckpoints,
  MAX_FILE_CHECKPOINTS,
  recordFileCheckpoint,
  FILE_CHECKPOINT_INDEX_KEY,
  withSessionFileCheckpoints,
} from '../../src/tools/file-checkpoints.js';
import type { ToolStateStore } from '../../src/tools/types.js';

/** A tool state as the agent keeps it: JSON values, `null` removes the key. */
function toolState(): ToolStateStore & { keys: () => string[] } {
  const map = new Map<string, unknown>();
  return {
    get: <T>(key: string) => (map.has(key) ? (JSON.parse(JSON.stringify(map.get(key))) as T) : undefined),
    set: (key, value) => {
      if (value === null) map.delete(key);
      else map.set(key, JSON.parse(JSON.stringify(value)));
    },
    keys: () => [...map.keys()],
  };
}

const content = (text: string) => ({ base64: Buffer.from(text).toString('base64'), bytes: Buffer.byteLength(text) });

describe('recordFileCheckpoint', () => {
  it('keeps previous contents in order, and "did not exist" as null', () => {
    const store = toolState();
    recordFileCheckpoint(store, { toolUseId: 'a', toolName: 'Write', path: '/w/x', before: null });
    recordFileCheckpoint(store, { toolUseId: 'b', toolName: 'Edit', path: '/w/x', before: content('one') });
    const kept = listFileCheckpoints(store);
    expect(kept.map((c) => [c.id, c.toolUseId, c.before === null ? null : Buffer.from(c.before, 'base64').toString()])).toEqual([
      [1, 'a', null],
      [2, 'b', 'one'],
    ]);
  });

  it('does not keep a file above maxFileBytes, and says so', () => {
    const store = toolState();
    recordFileCheckpoint(store, { toolUseId: 'a', toolName: 'Edit', path: '/w/big', before: content('x'.repeat(100)) }, { maxFileBytes: 10 });
    expect(listFileCheckpoints(store)[0]).toMatchObject({ before: null, omitted: 'too-large', bytes: 100 });
  });

  it('turns the oldest contents into stubs past maxBytes, so the total stays bounded', () => {
    const store = toolState();
    for (let i = 0; i < 10; i++) recordFileCheckpoint(store, { toolUseId: `t${i}`, toolName: 'Edit', path: '/w/f', before: content('y'.repeat(40)) }, { maxBytes: 100 });
    const kept = listFileCheckpoints(store);
    expect(kept).toHaveLength(10);
    const held = kept.filter((c) => c.before !== null);
    expect(held.reduce((sum, c) => sum + c.bytes, 0)).toBeLessThanOrEqual(100);
    expect(held.map((c) => c.toolUseId)).toEqual(['t8', 't9']);
    expect(kept.slice(0, 8).every((c) => c.omitted === 'evicted')).toBe(true);
  });

  it('drops the oldest stubs past the record bound and remembers that it forgot', () => {
    const store = toolState();
    for (let i = 0; i < MAX_FILE_CHECKPOINTS + 3; i++) recordFileCheckpoint(store, { toolUseId: `t${i}`, toolName: 'Write', path: `/w/${i}`, before: null });
    const kept = listFileCheckpoints(store);
    expect(kept).toHaveLength(MAX_FILE_CHECKPOINTS);
    expect(kept[0]!.toolUseId).toBe('t3');
    expect(fileCheckpointsForgotten(store)).toBe(true);
    expect(store.keys().filter((key) => key.startsWith('files.checkpoint:'))).toHaveLength(MAX_FILE_CHECKPOINTS);
  });

  it('dropFileCheckpoints removes records and their bytes', () => {
    const store = toolState();
    recordFileCheckpoint(store, { toolUseId: 'a', toolName: 'Edit', path: '/w/x', before: content('abc') });
    recordFileCheckpoint(store, { toolUseId: 'b', toolName: 'Edit', path: '/w/y', before: content('defg') });
    dropFileCheckpoints(store, [1]);
    expect(listFileCheckpoints(store).map((c) => c.toolUseId)).toEqual(['b']);
    expect(store.get<{ bytes: number }>(FILE_CHECKPOINT_INDEX_KEY)!.bytes).toBe(4);
  });

  it('survives a tampered index (not an object, ids not numbers) without throwing', () => {
    const store = toolState();
    store.set(FILE_CHECKPOINT_INDEX_KEY, { next: 'x', ids: 'nope' });
    expect(listFileCheckpoints(store)).toEqual([]);
    store.set(FILE_CHECKPOINT_INDEX_KEY, { next: 3, first: 'one', bytes: 0 });
    store.set('files.checkpoint:2', 'garbage');
    expect(listFileCheckpoints(store)).toEqual([]);
    recordFileCheckpoint(store, { toolUseId: 'a', toolName: 'Write', path: '/w/x', before: null });
    expect(listFileCheckpoints(store).map((c) => c.id)).toEqual([3]);
    // An index claiming 10^15 records is walked no further than the record bound.
    store.set(FILE_CHECKPOINT_INDEX_KEY, { first: 1, next: 1e15, contentFrom: 1, bytes: -5 });
    expect(listFileCheckpoints(store)).toEqual([]);
    recordFileCheckpoint(store, { toolUseId: 'b', toolName: 'Write', path: '/w/y', before: content('zz') });
    expect(listFileCheckpoints(store).map((c) => c.toolUseId)).toEqual(['b']);
  });

  it('writes an index of constant size, however many records (each write is one small entry)', () => {
    const store = toolState();
    for (let i = 0; i < 300; i++) recordFileCheckpoint(store, { toolUseId: `t${i}`, toolName: 'Write', path: `/w/${i}`, before: null });
    expect(JSON.stringify(store.get(FILE_CHECKPOINT_INDEX_KEY)).length).toBeLessThan(100);
  });
});

describe('withSessionFileCheckpoints', () => {
  it('sends file checkpoints to the session, attributed to the parent call, and keeps other keys its own', () => {
    const own = toolState();
    const parent = toolState();
    const store = withSessionFileCheckpoints(own, () => ({ toolState: parent, toolUseId: 'p_agent' }));
    recordFileCheckpoint(store, { toolUseId: 'c_write', toolName: 'Write', path: '/w/x', before: null });
    store.set('files.read:/w/x', { mtimeMs: 1 });
    expect(listFileCheckpoints(parent)).toEqual([expect.objectContaining({ id: 1, toolUseId: 'p_agent', toolName: 'Write', path: '/w/x', before: null })]);
    expect(listFileCheckpoints(store)).toEqual(listFileCheckpoints(parent));
    expect(own.keys()).toEqual(['files.read:/w/x']);
    expect(parent.get(FILE_CHECKPOINT_INDEX_KEY)).toMatchObject({ next: 2 });
  });

  it('keeps checkpoints its own when there is no session target (the main agent)', () => {
    const own = toolState();
    const store = withSessionFileCheckpoints(own, () => undefined);
    recordFileCheckpoint(store, { toolUseId: 'a', toolName: 'Write', path: '/w/x', before: null });
    expect(listFileCheckpoints(own)).toEqual([expect.objectContaining({ toolUseId: 'a' })]);
  });
});
