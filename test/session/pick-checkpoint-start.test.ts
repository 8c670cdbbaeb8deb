import { describe, expect, it } from 'vitest';
import { holdsCheckpointKind, pickLastCheckpoint, textsFromCheckpoint } from '../../src/session/pick-checkpoint-start.js';
import { parseEntryText } from '../../src/session/parse-entry-text.js';
import { checkpointScenarios } from './checkpoint-scenarios.js';

/** The candidates as the memory store lists them at append: texts past the first that may be a checkpoint. */
const candidatesOf = (texts: readonly string[]) => texts.flatMap((text, index) => (index > 0 && holdsCheckpointKind(text) ? [index] : []));

describe('textsFromCheckpoint (pickCheckpointStart over texts, as the memory store reads them)', () => {
  for (const scenario of checkpointScenarios()) {
    it(scenario.name, async () => {
      let parses = 0;
      const parse = (text: string) => {
        parses++;
        return parseEntryText(text);
      };
      // (Whether a transcript is large enough to look is the store's check, not this one's.)
      const { start, entry } = await textsFromCheckpoint(scenario.texts, candidatesOf(scenario.texts), scenario.agentId !== undefined ? { agentId: scenario.agentId } : {}, parse);
      expect(start).toBe(scenario.start);
      // The checkpoint picked comes parsed (a load yields it without parsing it again).
      expect(entry).toEqual(start === 0 ? undefined : parseEntryText(scenario.texts[start]!));
      // Only candidates, the texts before them and the first are parsed, each at most once.
      expect(parses).toBeLessThanOrEqual(scenario.texts.length);
    });
  }

  it('parses the last checkpoint that qualifies and the text before it, not the earlier ones', async () => {
    const scenario = checkpointScenarios()[0]!;
    const parsed: string[] = [];
    const parse = (text: string) => {
      parsed.push(text);
      return parseEntryText(text);
    };
    expect((await textsFromCheckpoint(scenario.texts, candidatesOf(scenario.texts), {}, parse)).start).toBe(scenario.texts.length - 2);
    expect(parsed).toEqual([scenario.texts[0], scenario.texts[4], scenario.texts[3]]);
  });
});

describe('pickLastCheckpoint (candidates handed over last first, as a store reads back from its end)', () => {
  /** Entries of session `s` by number: a checkpoint at each number of `checkpoints`, a message elsewhere, chained. */
  const entryAt = (seq: number, checkpoints: readonly number[]) => ({
    $schemaVersion: 2,
    id: `e${seq}`,
    parentId: seq === 1 ? null : `e${seq - 1}`,
    seq,
    sessionId: 's',
    kind: seq === 1 || checkpoints.includes(seq) ? 'checkpoint' : 'message',
  });
  /** Candidates `from` down to 2, counting how many were asked for. */
  const counted = (from: number) => {
    const asked = { count: 0 };
    async function* lastFirst() {
      for (let seq = from; seq >= 2; seq--) {
        asked.count++;
        yield seq;
      }
    }
    return { asked, lastFirst: lastFirst() };
  };

  it('asks for no candidate past the one it picks', async () => {
    const { asked, lastFirst } = counted(20);
    const start = await pickLastCheckpoint(lastFirst, {}, {
      first: () => entryAt(1, []),
      entry: (seq) => entryAt(seq, [17]),
      before: (seq) => entryAt(seq - 1, [17]),
      copied: () => false,
    });
    expect(start?.candidate).toBe(17);
    expect(asked.count).toBe(4);
  });

  it('tries 16 candidates, then gives up without asking for more', async () => {
    const { asked, lastFirst } = counted(40);
    const reads = { first: () => entryAt(1, []), before: (seq: number) => entryAt(seq - 1, []), copied: () => false };
    expect(await pickLastCheckpoint(lastFirst, {}, { ...reads, entry: (seq) => entryAt(seq, [24]) })).toBeUndefined();
    expect(asked.count).toBe(17);
    const within = counted(40);
    expect((await pickLastCheckpoint(within.lastFirst, {}, { ...reads, entry: (seq) => entryAt(seq, [25]) }))?.candidate).toBe(25);
  });

  it('passes over a candidate the store says may be a copy, awaiting its answer', async () => {
    const { lastFirst } = counted(20);
    const start = await pickLastCheckpoint(lastFirst, {}, {
      first: () => entryAt(1, []),
      entry: (seq) => entryAt(seq, [12, 17]),
      before: (seq) => entryAt(seq - 1, [12, 17]),
      copied: async (_entry, seq) => seq === 17,
    });
    expect(start?.candidate).toBe(12);
  });

  it('reads nothing when no candidate comes', async () => {
    let reads = 0;
    const read = () => {
      reads++;
      return undefined;
    };
    expect(await pickLastCheckpoint([], {}, { first: read, entry: read, before: read, copied: () => false })).toBeUndefined();
    expect(reads).toBe(0);
  });
});
