import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composePermissionRequest } from '../../src/hooks/compose-permission-request.js';
import { composePreToolUse } from '../../src/hooks/compose-pre-tool-use.js';
import type { PreToolUseHookOutput } from '../../src/hooks/types.js';

describe('composePreToolUse', () => {
  it('no opinion when no hook decides', () => {
    expect(composePreToolUse([{}, {}])).toEqual({ decision: undefined, reason: undefined, hasUpdatedInput: false, updatedInput: undefined });
  });

  it.each([
    [['allow', 'ask'], 'ask'],
    [['ask', 'allow'], 'ask'],
    [['ask', 'defer', 'allow'], 'defer'],
    [['allow', 'deny', 'defer'], 'deny'],
    [['allow'], 'allow'],
  ] as const)('%j → %s', (decisions, expected) => {
    expect(composePreToolUse(decisions.map((decision) => ({ decision }))).decision).toBe(expected);
  });

  it('keeps the reason of the first hook with the winning decision', () => {
    const composed = composePreToolUse([
      { decision: 'ask', reason: 'asked' },
      { decision: 'deny', reason: 'first deny' },
      { decision: 'deny', reason: 'second deny' },
    ]);
    expect(composed).toMatchObject({ decision: 'deny', reason: 'first deny' });
  });

  it('chains updatedInput in order (the last rewrite is the result)', () => {
    const composed = composePreToolUse([{ updatedInput: { a: 1 } }, {}, { updatedInput: { a: 2 }, decision: 'allow' }, {}]);
    expect(composed).toMatchObject({ hasUpdatedInput: true, updatedInput: { a: 2 }, decision: 'allow' });
  });

  it('property: deny > defer > ask > allow, whatever the order', () => {
    const decision = fc.constantFrom(undefined, 'allow', 'ask', 'defer', 'deny' as const);
    fc.assert(
      fc.property(fc.array(decision), (decisions) => {
        const outputs: PreToolUseHookOutput[] = decisions.map((value) => (value === undefined ? {} : { decision: value }));
        const expected = (['deny', 'defer', 'ask', 'allow'] as const).find((value) => decisions.includes(value));
        expect(composePreToolUse(outputs).decision).toBe(expected);
      }),
    );
  });
});

describe('composePermissionRequest', () => {
  it('deny beats allow and keeps the first deny message', () => {
    expect(composePermissionRequest([{ decision: 'allow' }, { decision: 'deny', message: 'no' }, { decision: 'deny', message: 'nope' }])).toMatchObject({
      decision: 'deny',
      message: 'no',
    });
  });
  it('allow with the last rewrite', () => {
    expect(composePermissionRequest([{ updatedInput: 1 }, { decision: 'allow', updatedInput: 2 }])).toEqual({
      decision: 'allow',
      message: undefined,
      hasUpdatedInput: true,
      updatedInput: 2,
    });
  });
  it('undecided when nobody answers', () => {
    expect(composePermissionRequest([{}]).decision).toBeUndefined();
  });
});
