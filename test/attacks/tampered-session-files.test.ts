// Attack class: a session file tampered with on disk (a torn write in the middle, lines copied
// between sessions, duplicated or reordered, a parentId edited). Each must load what is good (with
// a warning for what was skipped) or fail with SessionStoreCorruptError naming the entry and the
// cure: never a TypeError, never an entry applied twice or out of order.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionStoreCorruptError, type SessionEntry, type SessionStoreWarning } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { loadTranscript } from '../../src/session/load-entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';

const dir = mkdtempSync(join(tmpdir(), 'attack-tampered-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fileOf = (sessionId: string) => join(dir, `${sessionId}.jsonl`);
const linesOf = (sessionId: string) => readFileSync(fileOf(sessionId), 'utf8').trim().split('\n');
const writeLines = (sessionId: string, lines: string[]) => writeFileSync(fileOf(sessionId), `${lines.join('\n')}\n`);

/** A session of `count` entries written by the store; its entries. */
async function session(sessionId: string, count = 4): Promise<SessionEntry[]> {
  const make = entryMaker(sessionId);
  const entries = Array.from({ length: count }, (_, index) => make.userText(`${sessionId} ${index + 1}`));
  const store = fileSessionStore({ dir });
  await store.append(sessionId, entries, { expectedRevision: 0 });
  await store.close?.(sessionId);
  return entries;
}

async function load(sessionId: string) {
  const warnings: SessionStoreWarning[] = [];
  const loaded = await loadTranscript(fileSessionStore({ dir }), sessionId, { onWarning: (warning) => warnings.push(warning) });
  return { ids: loaded.entries.map((entry) => entry.id), revision: loaded.revision, warnings: warnings.map((warning) => warning.message) };
}

async function corrupt(sessionId: string): Promise<SessionStoreCorruptError> {
  const error = await load(sessionId).catch((caught: unknown) => caught);
  expect(SessionStoreCorruptError.isInstance(error)).toBe(true);
  return error as SessionStoreCorruptError;
}

describe('attack: a session file tampered with on disk', () => {
  it('a torn line in the middle (a write cut short, then later appends): the good entries load, the torn one is named in a warning, and the next append goes on', async () => {
    const written = await session('torn-middle');
    const lines = linesOf('torn-middle');
    writeLines('torn-middle', [lines[0]!, lines[1]!.slice(0, 25), lines[2]!, lines[3]!]);
    const loaded = await load('torn-middle');
    expect(loaded.ids).toEqual([written[0]!.id, written[2]!.id, written[3]!.id]);
    expect(loaded.revision).toBe(4);
    expect(loaded.warnings.join('\n')).toMatch(/line 2/);
    const next = { ...entryMaker('torn-middle', 4).userText('after'), parentId: written[3]!.id } as SessionEntry;
    const store = fileSessionStore({ dir });
    await store.append('torn-middle', [next], { expectedRevision: 4 });
    // Its writer keeps the file open until then (else the collector closes it, with a warning).
    await store.close?.('torn-middle');
    expect((await load('torn-middle')).ids).toEqual([written[0]!.id, written[2]!.id, written[3]!.id, next.id]);
  });

  it('garbage bytes in the middle (not JSON, not UTF-8, a JSON value that is no entry): skipped with warnings naming the lines; nothing good is lost', async () => {
    const written = await session('garbage-middle');
    const lines = linesOf('garbage-middle');
    writeFileSync(fileOf('garbage-middle'), Buffer.concat([Buffer.from(`${lines[0]}\n`), Buffer.from([0xff, 0xfe, 0x00, 0x0a]), Buffer.from(`null\n[1]\n${lines.slice(1).join('\n')}\n`)]));
    const loaded = await load('garbage-middle');
    expect(loaded.ids).toEqual(written.map((entry) => entry.id));
    expect(loaded.warnings).toHaveLength(3);
  });

  it("a line copied from another session's file into the middle: the load fails with SessionStoreCorruptError naming the entry and the cure", async () => {
    await session('victim');
    const other = await session('other', 3);
    const lines = linesOf('victim');
    // The other session's entry 3 after the victim's entry 2: its seq follows, its parentId does not.
    writeLines('victim', [lines[0]!, lines[1]!, linesOf('other')[2]!, lines[2]!, lines[3]!]);
    const error = await corrupt('victim');
    expect(error.message).toMatch(/transcript entry/);
    expect(error.message).toMatch(/restore|remove|put/i);
    expect(other).toHaveLength(3);
  });

  it("a line copied from another session's file at the end, numbered to follow: the load fails naming it (its parentId is another session's entry)", async () => {
    const written = await session('victim-end', 2);
    const foreign = { ...entryMaker('elsewhere', 2).userText('not yours'), parentId: 'elsewhere-entry-2' } as SessionEntry;
    writeLines('victim-end', [...linesOf('victim-end'), JSON.stringify(foreign)]);
    const error = await corrupt('victim-end');
    expect(error.message).toContain('transcript entry 3');
    expect(error.message).toContain('belongs to session "elsewhere"');
    expect(written).toHaveLength(2);
    // The same line with its sessionId edited to pass: its parent still gives it away.
    writeLines('victim-end', [...linesOf('victim-end').slice(0, 2), JSON.stringify({ ...foreign, sessionId: 'victim-end' })]);
    const edited = await corrupt('victim-end');
    expect(edited.message).toContain('transcript entry 3');
    expect(edited.message).toContain('elsewhere-entry-2');
  });

  it('a whole transcript copied under another id: the load fails at its first entry, naming the session it belongs to', async () => {
    await session('original', 3);
    writeLines('copy', linesOf('original'));
    const error = await corrupt('copy');
    expect(error.message).toContain('transcript entry 1');
    expect(error.message).toContain('belongs to session "original"');
    expect(error.message).toContain('agent.fork()');
  });

  it('a duplicated line in the middle: skipped with a warning, each entry applied once', async () => {
    const written = await session('duplicated');
    const lines = linesOf('duplicated');
    writeLines('duplicated', [lines[0]!, lines[1]!, lines[1]!, lines[2]!, lines[3]!]);
    const loaded = await load('duplicated');
    expect(loaded.ids).toEqual(written.map((entry) => entry.id));
    expect(loaded.warnings.join('\n')).toMatch(/entry 2 .*stored twice/);
  });

  it('lines out of order (seq going back): the load fails with SessionStoreCorruptError naming the entry and the cure', async () => {
    await session('reordered');
    const lines = linesOf('reordered');
    writeLines('reordered', [lines[0]!, lines[2]!, lines[1]!, lines[3]!]);
    const error = await corrupt('reordered');
    expect(error.message).toContain('transcript entry 2');
    expect(error.message).toMatch(/order of their seq/);
  });

  it('an entry whose parentId points nowhere: the load fails with SessionStoreCorruptError naming the entry, the id and the cure', async () => {
    await session('dangling');
    const lines = linesOf('dangling');
    const edited = { ...(JSON.parse(lines[2]!) as SessionEntry), parentId: 'no-such-entry' };
    writeLines('dangling', [lines[0]!, lines[1]!, JSON.stringify(edited), lines[3]!]);
    const error = await corrupt('dangling');
    expect(error.message).toContain('transcript entry 3');
    expect(error.message).toContain('no-such-entry');
  });

  it('an entry whose $schemaVersion was removed: the load fails with SessionStoreCorruptError naming the line and the field, not with advice to upgrade', async () => {
    await session('unversioned');
    const lines = linesOf('unversioned');
    const { $schemaVersion: _version, ...edited } = JSON.parse(lines[1]!) as SessionEntry;
    writeLines('unversioned', [lines[0]!, JSON.stringify(edited), lines[2]!, lines[3]!]);
    const error = await corrupt('unversioned');
    expect(error.message).toContain('line 2');
    expect(error.message).toContain('has no $schemaVersion field');
    expect(error.message).not.toMatch(/Upgrade agent-harness/);
    // The approval inbox passes over the damaged session, with a warning, instead of failing for every session.
    const warnings: string[] = [];
    await expect(fileSessionStore({ dir, onWarning: (warning) => warnings.push(warning.message) }).listPending!()).resolves.toEqual([]);
    expect(warnings.join('\n')).toMatch(/Passed over session "unversioned" in listPending\(\).*has no \$schemaVersion field/);
  });
});
