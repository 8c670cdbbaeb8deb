import { describe, expect, it } from 'vitest';
import { holdsCheckpointKind, textsFromCheckpoint } from '../../src/session/pick-checkpoint-start.js';
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
