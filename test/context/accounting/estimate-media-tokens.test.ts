import { describe, expect, it } from 'vitest';
import { createAgent, estimateBlockTokens, IMAGE_TOKEN_ESTIMATE, type AgentEvent, type ContentBlock } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { base64, pngHeader } from '../../model/image-headers.js';

const PAGE = 3000;
const BLOCK = 3;
const pageObject = (number: number) => `${number} 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n`;

/** A PDF's bytes, as latin1 text: a page tree, `pages` page objects, filler up to `bytes`. */
function pdf(pages: number, bytes: number, { at }: { at?: number } = {}): string {
  let text = '%PDF-1.7\n2 0 obj\n<< /Type /Pages /Count 1 >>\nendobj\n';
  for (let page = 0; page < pages; page++) text += pageObject(page + 3);
  if (at !== undefined) text = text.padEnd(at, 'x') + pageObject(99);
  return text.padEnd(bytes, 'x');
}

const pdfBlock = (latin1: string) => ({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(latin1, 'latin1').toString('base64') } }) as unknown as ContentBlock;

describe('counting documents and images', () => {
  it('a PDF counts by its pages, not by its base64', () => {
    expect(estimateBlockTokens(pdfBlock(pdf(10, 1_000_000)))).toBe(BLOCK + 10 * PAGE);
    // Inside a tool result too.
    expect(estimateBlockTokens({ type: 'tool_result', tool_use_id: 't', content: [pdfBlock(pdf(2, 10_000))] } as never)).toBe(2 * BLOCK + 2 * PAGE);
  });

  it('a page object split between two decoded chunks counts once', () => {
    // 49,152 bytes is one chunk of 65,536 base64 characters: the object straddles it, or ends right at it.
    for (const at of [49_140, 49_152 - pageObject(99).length, 49_152 - 20, 49_150]) {
      expect(estimateBlockTokens(pdfBlock(pdf(3, 200_000, { at })))).toBe(BLOCK + 4 * PAGE);
    }
  });

  it('a PDF whose pages cannot be counted counts by its size, 1 to 100 pages', () => {
    expect(estimateBlockTokens(pdfBlock(pdf(0, 1_000_000)))).toBe(BLOCK + 20 * PAGE);
    expect(estimateBlockTokens(pdfBlock(pdf(0, 100)))).toBe(BLOCK + PAGE);
    expect(estimateBlockTokens(pdfBlock(pdf(0, 20_000_000)))).toBe(BLOCK + 100 * PAGE);
    expect(estimateBlockTokens({ type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } } as never)).toBe(BLOCK + PAGE);
  });

  it('a text or content document counts by its text, with its title and context', () => {
    const text = 'word '.repeat(400);
    expect(estimateBlockTokens({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, title: 'abcd', context: 'efgh' } as never)).toBe(BLOCK + 500 + 1 + 1);
    expect(estimateBlockTokens({ type: 'document', source: { type: 'content', content: [{ type: 'text', text }] } } as never)).toBe(BLOCK + BLOCK + 500);
  });

  it('an image counts by its size when its header states it, at most IMAGE_TOKEN_ESTIMATE', () => {
    const image = (width: number, height: number) => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64(pngHeader(width, height)) } }) as ContentBlock;
    expect(estimateBlockTokens(image(100, 100))).toBe(BLOCK + 14);
    expect(estimateBlockTokens(image(4000, 3000))).toBe(BLOCK + IMAGE_TOKEN_ESTIMATE);
    expect(estimateBlockTokens({ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } } as ContentBlock)).toBe(BLOCK + IMAGE_TOKEN_ESTIMATE);
  });

  it('a PDF of ten pages in a prompt sets off no compaction', async () => {
    const model = scriptedModel(['read', 'summarized']);
    // 6 MB (8 MB of base64): two million tokens as text, 30,000 as pages.
    const agent = createAgent({ model, context: { window: 300_000 } });
    const events: AgentEvent[] = [];
    await agent.run('hello').result;
    const run = agent.run([pdfBlock(pdf(10, 6_000_000)), { type: 'text', text: 'Summarize this.' }]);
    for await (const event of run) events.push(event);
    expect((await run.result).status).toBe('completed');
    expect(events.map((event) => event.type)).not.toContain('compaction-start');
    expect(model.requests).toHaveLength(2);
  });
});
