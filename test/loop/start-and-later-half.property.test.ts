import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSummaryRequest } from '../../src/context/compaction/build-summary-request.js';
import { findCompactionCut } from '../../src/context/compaction/find-compaction-cut.js';
import { contentBlocks } from '../../src/context/message-blocks.js';
import { MIDDLE_LEFT_OUT_NOTE, startAndLaterHalf } from '../../src/loop/start-and-later-half.js';
import type { Message } from '../../src/model/messages.js';
import { validateMessagesRequestBody } from '../../src/testing/messages-server/validate-messages-request-body.js';
import { historyArbitrary } from '../context/compaction/history-arbitrary.js';

// The session's tools go with the summary request (the API wants tools beside tool blocks).
const validate = (messages: Message[]) =>
  validateMessagesRequestBody({ model: 'claude-sonnet-4-6', max_tokens: 1000, tools: [{ name: 'Read', description: 'Reads.', input_schema: { type: 'object' } }], messages });

describe('the shortest summary request (first message and later half)', () => {
  it('for any summarized part, keeps the first message’s blocks and the last message’s, and the request stays valid', () => {
    let shortened = 0;
    fc.assert(
      fc.property(historyArbitrary(), fc.nat({ max: 3000 }), ({ messages }, keepTokens) => {
        const cut = findCompactionCut(messages, { keepTokens });
        if (cut === undefined) return;
        const summarized = messages.slice(0, cut);
        const shorter = startAndLaterHalf(summarized);
        expect(validate(buildSummaryRequest({ system: [], tools: [], messages: shorter, cut: shorter.length }).messages)).toBeUndefined();
        if (shorter.length === summarized.length) return;
        shortened++;
        const opening = contentBlocks(shorter[0]!);
        expect(opening[0]).toEqual({ type: 'text', text: MIDDLE_LEFT_OUT_NOTE });
        for (const block of contentBlocks(summarized[0]!)) expect(opening).toContainEqual(block);
        // The latest message is there as it was (joined to the opening when it opens the later half).
        const last = contentBlocks(summarized.at(-1)!);
        expect(contentBlocks(shorter.at(-1)!).slice(-last.length)).toEqual(last);
      }),
      { numRuns: 400 },
    );
    // The generator reaches the interesting case, not only histories too short to shorten.
    expect(shortened).toBeGreaterThan(20);
  });
});
