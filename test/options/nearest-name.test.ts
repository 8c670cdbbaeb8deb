import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestName } from '../../src/options/nearest-name.js';

const agentOptions = ['model', 'system', 'tools', 'permissionMode', 'canUseTool', 'rules', 'hooks', 'cwd', 'maxTurns', 'maxBudgetUsd', 'sessionId', 'resume', 'store'];

describe('nearestName', () => {
  it.each([
    ['systemPrompt', 'system'],
    ['maxTurn', 'maxTurns'],
    ['maxturns', 'maxTurns'],
    ['max_turns', 'maxTurns'],
    ['permisionMode', 'permissionMode'],
    ['cnaUseTool', 'canUseTool'],
    ['tool', 'tools'],
    ['session_id', 'sessionId'],
    ['Hooks', 'hooks'],
  ])('%s → %s', (typo, expected) => {
    expect(nearestName(typo, agentOptions)).toBe(expected);
  });

  it.each([['allowedTools'], ['temperature'], ['x'], [''], ['a'.repeat(500)]])('%s has no near name', (name) => {
    expect(nearestName(name, agentOptions)).toBeUndefined();
  });

  it('finds tool names with a typo, and prefers a real typo to a longer prefix', () => {
    expect(nearestName('Raed', ['Read', 'Write', 'Edit'])).toBe('Read');
    expect(nearestName('Red', ['Read', 'Write', 'Edit'])).toBe('Read');
    expect(nearestName('systemm', ['system', 'systemPrompt'])).toBe('system');
  });

  it('returns a candidate, or nothing, for any input (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string()), (name, candidates) => {
        const near = nearestName(name, candidates);
        expect(near === undefined || candidates.includes(near)).toBe(true);
      }),
    );
  });

  it('finds the name itself, whatever else is listed (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 30 }).filter((name) => /[a-z0-9]/i.test(name)), fc.array(fc.string()), (name, others) => {
        const near = nearestName(name, [...others, name]);
        expect(near?.toLowerCase().replace(/[\s_-]/g, '')).toBe(name.toLowerCase().replace(/[\s_-]/g, ''));
      }),
    );
  });
});
