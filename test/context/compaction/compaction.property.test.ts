import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCompactedHistory } from '../../../src/context/compaction/build-compacted-history.js';
import { buildSummaryRequest } from '../../../src/context/compaction/build-summary-request.js';
import { findCompactionCut, isSafeCut } from '../../../src/context/compaction/find-compaction-cut.js';
import type { CompactionState } from '../../../src/context/compaction/session-state-blocks.js';
import { UnsafeCompactionCutError } from '../../../src/errors/unsafe-compaction-cut-error.js';
import type { Message } from '../../../src/model/messages.js';
import { validateMessagesRequestBody } from '../../../src/testing/messages-server/validate-messages-request-body.js';
import { answerOpenCall, historyArbitrary } from './history-arbitrary.js';

// The session's tools go with every request (the API wants tools beside tool blocks).
const validate = (messages: Message[]) =>
  validateMessagesRequestBody({ model: 'claude-sonnet-4-6', max_tokens: 1000, tools: [{ name: 'Read', description: 'Reads.', input_schema: { type: 'object' } }], messages });

const stateArbitrary: fc.Arbitrary<CompactionState> = fc.record({
  permissionMode: fc.constantFrom('default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions' as const),
  plan: fc.option(fc.record({ name: fc.constant('calm-river-song.md'), text: fc.string({ minLength: 1 }) }), { nil: undefined }),
  todos: fc.array(fc.record({ content: fc.string({ minLength: 1 }), status: fc.constantFrom('pending', 'in_progress', 'completed' as const), activeForm: fc.string({ minLength: 1 }) }), { maxLength: 4 }),
  sessionRules: fc.record({ allow: fc.array(fc.constantFrom('Read', 'Bash(npm test:*)'), { maxLength: 2 }) }),
});

describe('compaction keeps every request valid (property)', () => {
  it('the generated histories are themselves valid (the generator is honest)', () => {
    fc.assert(
      fc.property(historyArbitrary(), ({ messages }) => {
        expect(validate(answerOpenCall(messages))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('for any history and any keep budget, the cut found gives a history the server accepts', () => {
    fc.assert(
      fc.property(historyArbitrary(), fc.nat({ max: 5000 }), stateArbitrary, fc.string(), ({ messages }, keepTokens, state, summary) => {
        const cut = findCompactionCut(messages, { keepTokens });
        if (cut === undefined) {
          // Only when nothing can be summarized: no safe cut at all.
          for (let index = 1; index <= messages.length; index++) expect(isSafeCut(messages, index)).toBe(false);
          return;
        }
        const compacted = buildCompactedHistory({ messages, cut, summary: summary.trim() || 'Summary.', state });
        expect(validate(answerOpenCall(compacted.messages))).toBeUndefined();
        expect(compacted.summarized + compacted.kept).toBe(messages.length);
        // The kept messages are the same objects, in order (the first may be merged into the opening).
        const tail = messages.slice(cut + (messages[cut]?.role === 'user' ? 1 : 0));
        expect(compacted.messages.slice(compacted.messages.length - tail.length)).toEqual(tail);
        tail.forEach((message, index) => expect(compacted.messages[compacted.messages.length - tail.length + index]).toBe(message));
        // The summary request over the summarized part is valid too.
        expect(validate(buildSummaryRequest({ system: [], tools: [], messages, cut }).messages)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('at any random cut point: a safe cut builds an accepted history, an unsafe one is refused', () => {
    fc.assert(
      fc.property(
        historyArbitrary().chain((history) => fc.record({ history: fc.constant(history), cut: fc.integer({ min: -1, max: history.messages.length + 1 }) })),
        stateArbitrary,
        ({ history: { messages }, cut }, state) => {
          if (isSafeCut(messages, cut)) {
            const compacted = buildCompactedHistory({ messages, cut, summary: 'What happened.', state });
            expect(validate(answerOpenCall(compacted.messages))).toBeUndefined();
          } else {
            expect(() => buildCompactedHistory({ messages, cut, summary: 'What happened.', state })).toThrow(UnsafeCompactionCutError);
            expect(() => buildSummaryRequest({ system: [], tools: [], messages, cut })).toThrow(UnsafeCompactionCutError);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('isSafeCut is not over-cautious: inside the history, a cut it refuses really breaks the conversation', () => {
    fc.assert(
      fc.property(historyArbitrary(), ({ messages }) => {
        for (let cut = 1; cut < messages.length; cut++) {
          if (isSafeCut(messages, cut)) continue;
          // Slicing there anyway (with a neutral opening) is refused by the server.
          const naive: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Summary.' }] }];
          const kept = messages.slice(cut);
          if (kept[0]!.role === 'user') naive[0] = { role: 'user', content: [{ type: 'text', text: 'Summary.' }, ...(kept.shift()!.content as never[])] };
          expect(validate(answerOpenCall([...naive, ...kept]))).toBeDefined();
        }
      }),
      { numRuns: 300 },
    );
  });
});
