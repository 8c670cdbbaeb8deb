import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import type { SessionStore } from 'agent-harness';
import { fileSessionStore, filePlanStore } from 'agent-harness/node';
import { describeConformance, planStoreConformance, sessionStoreConformance } from 'agent-harness/testing';

/** A directory of its own per case; every store opened on it is closed and the directory removed after. */
function fileFixture(now: () => number) {
  const dir = mkdtempSync(join(tmpdir(), 'file-store-conformance-'));
  const opened: SessionStore[] = [];
  const open = () => {
    const store = fileSessionStore({ dir, now });
    opened.push(store);
    return store;
  };
  const store = open();
  return {
    store,
    openPeer: open,
    // What a crash during a write leaves: the last line cut short. The writer is gone (closed).
    damage: async (sessionId: string) => {
      for (const instance of opened) await instance.close?.(sessionId);
      const file = join(dir, `${sessionId}.jsonl`);
      const text = readFileSync(file, 'utf8');
      const lastLine = text.slice(0, -1).lastIndexOf('\n') + 1;
      writeFileSync(file, text.slice(0, lastLine + Math.floor((text.length - lastLine) / 2)));
    },
    dispose: async () => {
      for (const instance of opened) for (const sessionId of await instance.list()) await instance.close?.(sessionId);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeConformance({
  title: 'fileSessionStore conformance',
  cases: sessionStoreConformance({ create: ({ now }) => fileFixture(now), peers: true, damage: true, peerRefusalCodes: ['session-locked'] }),
  describe,
  it,
});

describeConformance({
  title: 'filePlanStore conformance',
  cases: planStoreConformance({
    create: () => {
      const dir = mkdtempSync(join(tmpdir(), 'file-plan-conformance-'));
      return { store: filePlanStore({ dir }), openPeer: () => filePlanStore({ dir }), dispose: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  }),
  describe,
  it,
});
