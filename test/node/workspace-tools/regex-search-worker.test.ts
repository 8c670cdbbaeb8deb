import { afterEach, describe, expect, it, vi } from 'vitest';
import { RegexSearchStopped, RegexSearchWorker } from '../../../src/node/workspace-tools/regex-search-worker.js';

afterEach(() => {
  vi.useRealTimers();
});

/** Many short lines: matching them takes the worker well over a millisecond. */
const manyLines = Array.from({ length: 400_000 }, (_, index) => `line ${index} of filler text`).join('\n');

describe('RegexSearchWorker: the deadline counts the worker’s own matching time', () => {
  it('a question asked once the time is used up is refused as timed out, not left waiting', async () => {
    // The deadline's timer fires only when the test moves the clock: the first answer arrives
    // with its time spent (tens of milliseconds of matching) and no check made yet.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const searcher = new RegexSearchWorker({ regexp: /filler/, timeoutMs: 1, signal: new AbortController().signal });
    try {
      expect((await searcher.matchingLines(manyLines)).length).toBe(400_000);
      const error = await searcher.matchingLines('one more\n').then(
        () => 'answered',
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(RegexSearchStopped);
      expect((error as RegexSearchStopped).reason).toBe('timeout');
      // And so is every later one.
      await expect(searcher.matchingLines('and another\n')).rejects.toBeInstanceOf(RegexSearchStopped);
    } finally {
      await searcher.close();
    }
  });

  it('time the caller spends between two questions is not counted', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const searcher = new RegexSearchWorker({ regexp: /needle/, timeoutMs: 1000, signal: new AbortController().signal });
    try {
      for (let round = 0; round < 3; round++) {
        const asked = searcher.matchingLines('hay\nneedle\n');
        // The caller's clock runs on far past the deadline while the question is out.
        await vi.advanceTimersByTimeAsync(5000);
        expect(await asked).toEqual([1]);
      }
    } finally {
      await searcher.close();
    }
  });
});
