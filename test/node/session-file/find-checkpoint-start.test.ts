// findCheckpointStart finds the line a resume may read a transcript from without decoding the
// file: its byte scan must split and number lines exactly as fileLines does (wherever a chunk
// ends), and it must pick the same entry as the memory store (textsFromCheckpoint).
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCheckpointStart, scanLines } from '../../../src/node/session-file/find-checkpoint-start.js';
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
