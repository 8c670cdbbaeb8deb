// findCheckpointStart finds the line a resume may read a transcript from without decoding the
// file: its byte scan must split and number lines exactly as fileLines does (wherever a chunk
// ends), and it must pick the same entry as the memory store (textsFromCheckpoint). The ids and
// seqs it reads from the lines' beginnings must count as the lines parsed count (TranscriptCount).
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countedBefore, findCheckpointStart, libraryIdAndSeq, scanLines } from '../../../src/node/session-file/find-checkpoint-start.js';
import { TranscriptCount } from '../../../src/node/session-file/session-file-writer.js';
import { fileLines } from '../../../src/node/session-file/file-lines.js';
import { CHECKPOINT_KIND, KIND_WITHIN } from '../../../src/session/pick-checkpoint-start.js';
import { checkpointScenarios } from '../../session/checkpoint-scenarios.js';

const dir = mkdtempSync(join(tmpdir(), 'find-checkpoint-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

async function withFile<T>(bytes: Buffer, body: (handle: Awaited<ReturnType<typeof open>>) => Promise<T>): Promise<T> {
  const file = join(dir, `f${files++}`);
  writeFileSync(file, bytes);
  const handle = await open(file);
  try {
    return await body(handle);
  } finally {
    await handle.close();
  }
}

/** The lines of `bytes` decoded whole, as readline splits them (the reference of file-lines.test.ts). */
function reference(bytes: Buffer): string[] {
  if (bytes.length === 0) return [];
  const lines = bytes.toString('utf8').split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const piece = fc.constantFrom(
  'a', 'é', '€', '😀', '\n', '\r', '\r\n', '"checkpoint"', '{"kind":"checkpoint"}', '"kind":"check', 'point"', ' ', 'x'.repeat(KIND_WITHIN - 5),
  // Whole lines after long runs: lines that begin and end within one read, after reads with none.
  '\n{"kind":"checkpoint"}\n', 'x'.repeat(200),
);

describe('scanLines', () => {
  it('finds a line within one read after reads in which no line held the word', async () => {
    const bytes = Buffer.from(`a\nb\n${'x'.repeat(60)}\n{"kind":"checkpoint"}\n`);
    await withFile(bytes, async (handle) => {
      // Reads of 30 bytes: "b" is looked at in the first, the word's line lies within the third.
      expect((await scanLines(handle, bytes.length, 30)).candidates.map((candidate) => candidate.place.line)).toEqual([4]);
    });
  });

  it('splits and numbers lines as fileLines does, wherever a chunk ends, and finds the lines whose beginning holds "kind":"checkpoint"', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 40 }), fc.oneof(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 25, max: 300 }), fc.integer({ min: 1000, max: 5000 })), async (pieces, chunkBytes) => {
        const bytes = Buffer.from(pieces.join(''), 'utf8');
        const lines = reference(bytes);
        await withFile(bytes, async (handle) => {
          const scan = await scanLines(handle, bytes.length, chunkBytes);
          const text = (place: { start: number; end: number }) => bytes.subarray(place.start, place.end).toString('utf8');
          if (lines.length === 0) expect(scan.first).toBeUndefined();
          else expect(scan.first && text(scan.first)).toBe(lines[0]);
          // The candidates: every later non-empty line with an earlier non-empty one, whose first bytes hold the word.
          const expected: Array<{ line: number; previous: number }> = [];
          let previous: number | undefined = lines[0] !== undefined && lines[0] !== '' ? 1 : undefined;
          lines.forEach((line, index) => {
            if (index === 0 || line === '') return;
            const head = Buffer.from(line, 'utf8').subarray(0, KIND_WITHIN);
            if (previous !== undefined && head.includes(CHECKPOINT_KIND)) expected.push({ line: index + 1, previous });
            previous = index + 1;
          });
          expect(scan.candidates.map((candidate) => ({ line: candidate.place.line, previous: candidate.previous.line }))).toEqual(expected);
          for (const candidate of scan.candidates) {
            expect(text(candidate.place)).toBe(lines[candidate.place.line - 1]);
            expect(text(candidate.previous)).toBe(lines[candidate.previous.line - 1]);
            expect(candidate.head).toEqual(bytes.subarray(candidate.place.start, Math.min(candidate.place.end, candidate.place.start + KIND_WITHIN)));
            // fileLines started at the candidate gives the lines from it on.
            const from: string[] = [];
            for await (const batch of fileLines(handle, bytes.length, chunkBytes, candidate.place.start)) from.push(...batch);
            expect(from).toEqual(lines.slice(candidate.place.line - 1));
          }
        });
      }),
      { numRuns: 600 },
    );
  });
});

describe('scanLines going on from where a scan ended', () => {
  const strip = (scan: Awaited<ReturnType<typeof scanLines>>) => ({ first: scan.first, candidates: scan.candidates, end: scan.end && { ...scan.end, tail: undefined } });

  it('finds what a scan of the whole file finds, from the end of a scan of its beginning (which ended with a newline)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 40 }), fc.array(piece, { maxLength: 20 }), fc.oneof(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1000, max: 5000 })), async (before, after, chunkBytes) => {
        const head = Buffer.from(before.join(''), 'utf8');
        const whole = Buffer.concat([head, Buffer.from(after.join(''), 'utf8')]);
        const ended = await withFile(head, (handle) => scanLines(handle, head.length, chunkBytes));
        // A scan ends where a later one can go on only after a \n that no \r before it makes part of a \r\n... or after a \r\n.
        if (head.length === 0 || head[head.length - 1] !== 0x0a) {
          expect(ended.end).toBeUndefined();
          return;
        }
        expect(ended.end?.size).toBe(head.length);
        expect(ended.end!.tail).toEqual(head.subarray(Math.max(0, head.length - 256)));
        await withFile(whole, async (handle) => {
          const direct = await scanLines(handle, whole.length, chunkBytes);
          const goneOn = await scanLines(handle, whole.length, chunkBytes, undefined, ended.end);
          expect(goneOn.lines).toBeUndefined();
          expect(strip(goneOn)).toEqual(strip(direct));
          expect(goneOn.end?.tail).toEqual(direct.end?.tail);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('ends nowhere after a lone \\r (a \\n appended next would join its break) or without a break at the end', async () => {
    for (const text of ['a\n{"kind":"checkpoint"}\r', 'a\nb', 'a\r']) {
      const bytes = Buffer.from(text);
      expect((await withFile(bytes, (handle) => scanLines(handle, bytes.length, 4))).end).toBeUndefined();
    }
    const bytes = Buffer.from('a\r\n');
    expect((await withFile(bytes, (handle) => scanLines(handle, bytes.length, 3))).end).toMatchObject({ size: 3, line: 2 });
  });
});

describe('findCheckpointStart', () => {
  for (const scenario of checkpointScenarios()) {
    for (const chunkBytes of [7, 1 << 20]) {
      it(`${scenario.name} (reads of ${chunkBytes} bytes)`, async () => {
        const bytes = Buffer.from(`${scenario.texts.join('\n')}\n`, 'utf8');
        const start = await withFile(bytes, (handle) => findCheckpointStart(handle, bytes.length, scenario.agentId !== undefined ? { agentId: scenario.agentId } : {}, chunkBytes));
        if (scenario.start === 0) expect(start).toBeUndefined();
        else {
          expect(start?.place.line).toBe(scenario.start + 1);
          expect(start?.entry).toEqual(JSON.parse(scenario.texts[scenario.start]!));
        }
      });
    }
  }

  it('a transcript saved with a byte order mark and \\r\\n line breaks', async () => {
    const scenario = checkpointScenarios()[0]!;
    const bytes = Buffer.from(`\uFEFF${scenario.texts.join('\r\n')}\r\n`, 'utf8');
    const start = await withFile(bytes, (handle) => findCheckpointStart(handle, bytes.length, {}, 5));
    expect(start?.place.line).toBe(scenario.start + 1);
  });
});

describe('libraryIdAndSeq', () => {
  const line = (entry: Record<string, unknown>) => Buffer.from(JSON.stringify(entry));
  const entry = { $schemaVersion: 2, id: 'Ab3_-xYz09Qr', parentId: 'Zz9_-aaaa000', seq: 1234, timestamp: '2026-12-06T00:00:00.000Z', sessionId: 's', kind: 'message' };

  it('reads the id and seq of a line as the library writes it (a parent or none)', () => {
    expect(libraryIdAndSeq(line(entry))).toEqual({ id: 'Ab3_-xYz09Qr', seq: 1234 });
    expect(libraryIdAndSeq(line({ ...entry, parentId: null, seq: 1 }))).toEqual({ id: 'Ab3_-xYz09Qr', seq: 1 });
    // The object may end right after the seq.
    expect(libraryIdAndSeq(Buffer.from('{"$schemaVersion":2,"id":"a","parentId":null,"seq":7}'))).toEqual({ id: 'a', seq: 7 });
  });

  it('leaves every other beginning to a parse of the line', () => {
    const others = [
      JSON.stringify({ id: entry.id, $schemaVersion: 2, parentId: null, seq: 1 }), // another order
      JSON.stringify({ $schemaVersion: 2, id: entry.id, seq: 1, parentId: null }),
      JSON.stringify({ $schemaVersion: 2, id: 'with "quote"', parentId: null, seq: 1 }), // an escape
      JSON.stringify({ $schemaVersion: 2, id: 'back\\slash', parentId: null, seq: 1 }),
      JSON.stringify({ $schemaVersion: 2, id: 'ünïcode', parentId: null, seq: 1 }), // not ASCII
      JSON.stringify({ $schemaVersion: 2, id: 'tab\there', parentId: null, seq: 1 }),
      JSON.stringify({ $schemaVersion: 2, id: 'a', parentId: 'p"q', seq: 1 }),
      JSON.stringify({ $schemaVersion: 2, id: 'a', parentId: 3, seq: 1 }),
      JSON.stringify({ $schemaVersion: 2, id: 'a', parentId: null, seq: 0 }), // not a positive seq
      JSON.stringify({ $schemaVersion: 2, id: 'a', parentId: null, seq: -1 }),
      JSON.stringify({ $schemaVersion: 2, id: 'a', parentId: null, seq: 1.5 }),
      JSON.stringify({ $schemaVersion: 2, id: 'a', parentId: null, seq: '1' }),
      JSON.stringify({ $schemaVersion: 2, id: 'a', parentId: null, seq: 1e21 }),
      JSON.stringify({ $schemaVersion: 2, id: 'a', parentId: null, seq: 1234567890123456 }), // 16 digits: past a safe integer's
      JSON.stringify({ $schemaVersion: 2, id: 'a', parentId: null }), // no seq (version 1)
      JSON.stringify({ $schemaVersion: 2, id: 7, parentId: null, seq: 1 }),
      JSON.stringify({ $schemaVersion: '2', id: 'a', parentId: null, seq: 1 }),
      '{"$schemaVersion":2,"id":"a","parentId":null,"seq":1e3,"kind":"x"}',
      '{"$schemaVersion":2,"id":"a","parentId":null,"seq":01,"kind":"x"}',
      '{ "$schemaVersion":2,"id":"a","parentId":null,"seq":1}',
      '{"$schemaVersion":2, "id":"a","parentId":null,"seq":1}',
      '\uFEFF{"$schemaVersion":2,"id":"a","parentId":null,"seq":1}',
      '{"$schemaVersion":2,"id":"a',
      '{"$schemaVersion":2,"id":"a","parentId":null,"seq":12',
      '',
    ];
    for (const text of others) expect(libraryIdAndSeq(Buffer.from(text))).toBeUndefined();
  });
});

describe('countedBefore', () => {
  /** Lines of every sort a transcript may hold: as the library writes them, written otherwise, damaged. */
  const sort = fc.constantFrom('library', 'library', 'library', 'reordered', 'version1', 'odd-id', 'bad-seq', 'string-seq', 'blank', 'damaged', 'not-object', 'duplicate');
  const lineOf = (kind: string, index: number, text: string): string => {
    const id = `id${index}`;
    const base = { $schemaVersion: 2, id, parentId: index > 0 ? `id${index - 1}` : null, seq: index + 1, timestamp: '2026-12-06T00:00:00.000Z', sessionId: 's', kind: 'message', text };
    switch (kind) {
      case 'reordered':
        return JSON.stringify({ kind: 'message', seq: index + 1, id, text });
      case 'version1':
        return JSON.stringify({ $schemaVersion: 1, id, parentId: null, kind: 'message', text });
      case 'odd-id':
        return JSON.stringify({ ...base, id: `"${id}" ünï\\` });
      case 'bad-seq':
        return JSON.stringify({ ...base, seq: 0 });
      case 'string-seq':
        return JSON.stringify({ ...base, seq: String(index + 1) });
      case 'blank':
        return '   ';
      case 'damaged':
        return `not json ${text}`;
      case 'not-object':
        return JSON.stringify([id, text]);
      case 'duplicate':
        return JSON.stringify({ ...base, id: 'id0' });
      default:
        return JSON.stringify(base);
    }
  };
  /** What a count holds: its revision and last id, and the numbers it gives for each id the lines of `length` may hold. */
  const counts = (count: TranscriptCount, length: number) => {
    const ids = Array.from({ length }, (_, index) => [`id${index}`, `"id${index}" ünï\\`]).flat();
    return { revision: count.revision, lastId: count.lastId, size: count.ids.size, seqs: ids.map((id) => count.ids.seqsOf(id)) };
  };

  it('counts the lines before a line as the lines parsed count, wherever a read ends and however the lines end', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(sort, fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom('\n', '\r\n', '\r')), { maxLength: 30 }),
        fc.boolean(),
        fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1000, max: 5000 })),
        async (lines, bom, chunkBytes) => {
          const texts = lines.map(([kind, text], index) => lineOf(kind, index, text));
          const bytes = Buffer.from((bom ? '\uFEFF' : '') + texts.map((text, index) => text + lines[index]![2]).join(''), 'utf8');
          // The reference: each line parsed, as the reader reads it.
          const expected = new TranscriptCount();
          reference(bytes).forEach((text, index) => {
            const own = index === 0 && text.startsWith('\uFEFF') ? text.slice(1) : text;
            if (own.trim().length === 0) return;
            try {
              const value = JSON.parse(own) as unknown;
              if (typeof value === 'object' && value !== null && !Array.isArray(value)) expected.add([value as { id?: unknown; seq?: unknown }]);
            } catch {
              // skipped, as the reader skips it
            }
          });
          await withFile(bytes, async (handle) => {
            const scan = await scanLines(handle, bytes.length, chunkBytes);
            const count = new TranscriptCount();
            count.add(await countedBefore(handle, scan.lines!, Number.POSITIVE_INFINITY));
            expect(counts(count, lines.length)).toEqual(counts(expected, lines.length));
            // Read from their beginnings: the lines as the library writes them (after a byte order mark, parsed).
            const fast = scan.lines!.filter((counted) => 'id' in counted).length;
            expect(fast).toBe(lines.filter(([kind], index) => (kind === 'library' || kind === 'duplicate') && !(bom && index === 0)).length);
          });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('counts only the lines before the one given, and none past the lines a scan keeps', async () => {
    const texts = Array.from({ length: 6 }, (_, index) => lineOf(index === 2 ? 'reordered' : 'library', index, 'x'));
    const bytes = Buffer.from(`${texts.join('\n')}\n`);
    await withFile(bytes, async (handle) => {
      const scan = await scanLines(handle, bytes.length, 16);
      expect((await countedBefore(handle, scan.lines!, 4)).map((entry) => entry.id)).toEqual(['id0', 'id1', 'id2']);
      expect((await scanLines(handle, bytes.length, 16, 6)).lines).toHaveLength(6);
      expect((await scanLines(handle, bytes.length, 16, 5)).lines).toBeUndefined();
    });
  });
});
