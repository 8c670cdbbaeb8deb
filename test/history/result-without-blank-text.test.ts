import { describe, expect, it } from 'vitest';
import { NO_OUTPUT, resultWithoutBlankText } from '../../src/history/result-without-blank-text.js';
import type { ContentBlock } from '../../src/model/messages.js';

const result = (content: unknown, isError?: boolean) => ({ type: 'tool_result', tool_use_id: 'toolu_1', content, ...(isError ? { is_error: true } : {}) }) as ContentBlock;

describe('resultWithoutBlankText', () => {
  it('returns the same block when there is no blank text (and for blocks that are not results)', () => {
    for (const block of [result('ok'), result(''), result([{ type: 'text', text: 'ok' }]), { type: 'text', text: ' ' } as ContentBlock]) {
      expect(resultWithoutBlankText(block)).toBe(block);
    }
  });

  it('drops blank text blocks and keeps the rest, images included', () => {
    const image = { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } };
    expect(resultWithoutBlankText(result([{ type: 'text', text: '' }, image, { type: 'text', text: ' \n' }, { type: 'text', text: 'ok' }]))).toEqual(result([image, { type: 'text', text: 'ok' }]));
  });

  it('a result left with nothing says (no output); an error result is left empty for its own sentence', () => {
    expect(resultWithoutBlankText(result([{ type: 'text', text: ' ' }]))).toEqual(result(NO_OUTPUT));
    expect(resultWithoutBlankText(result('  \n'))).toEqual(result(NO_OUTPUT));
    expect(resultWithoutBlankText(result([{ type: 'text', text: '' }], true))).toEqual(result([], true));
    expect(resultWithoutBlankText(result(' ', true))).toEqual(result(' ', true));
  });
});
