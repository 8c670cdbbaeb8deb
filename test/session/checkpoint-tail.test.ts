import { describe, expect, it } from 'vitest';
import { CheckpointTail } from '../../src/session/checkpoint-tail.js';
import { parseEntryText } from '../../src/session/parse-entry-text.js';
import { checkpointScenarios } from './checkpoint-scenarios.js';

describe('CheckpointTail', () => {
  for (const scenario of checkpointScenarios()) {
    it(scenario.name, () => {
      let parses = 0;
      const tail = new CheckpointTail(scenario.agentId !== undefined ? { agentId: scenario.agentId } : {}, (text) => {
        parses++;
        return parseEntryText(text);
      });
      scenario.texts.forEach((text, index) => tail.add(text, index + 1));
      const lines = tail.lines();
      expect(lines.map((line) => line.text)).toEqual(scenario.texts.slice(scenario.start));
      expect(lines[0]?.place).toBe(scenario.start + 1);
      // Only candidates, the texts before them and the first are parsed, each at most once.
      expect(parses).toBeLessThanOrEqual(scenario.texts.length);
    });
  }

  it('parses the last checkpoint that qualifies and the text before it, not the earlier ones', () => {
    const scenario = checkpointScenarios()[0]!;
    const parsed: string[] = [];
    const tail = new CheckpointTail({}, (text) => {
      parsed.push(text);
      return parseEntryText(text);
    });
    scenario.texts.forEach((text, index) => tail.add(text, index + 1));
    expect(tail.lines()).toHaveLength(2);
    expect(parsed).toEqual([scenario.texts[0], scenario.texts[4], scenario.texts[3]]);
  });
});
