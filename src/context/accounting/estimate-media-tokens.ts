import { base64Reader, imageDimensions } from '../../model/image-dimensions.js';

/**
 * Tokens assumed for one page of a PDF: the API sends each page as its text and as an image
 * (1,500–3,000 tokens of text a page, by its documentation, plus the page's image).
 */
export const PDF_PAGE_TOKEN_ESTIMATE = 3000;

/**
 * Bytes a page is assumed to take when a PDF's pages cannot be counted (its page objects sit in
 * compressed object streams): a dense text page is a few kilobytes, a scanned one far more.
 */
const PDF_BYTES_PER_PAGE = 50_000;

/** The most pages the API reads of one PDF. */
const MAX_PDF_PAGES = 100;

/** Base64 characters decoded at a time while counting a PDF's pages (a multiple of 4). */
const CHUNK_CHARS = 1 << 16;

/** A page object (`/Type /Page`, not `/Pages`). */
const PAGE_OBJECT = /\/Type\s{0,8}\/Page(?![A-Za-z])/g;

/** Characters of a chunk carried into the next, so a page object split between them is seen. */
const CARRY = 24;

/** By document block: its page estimate, counted once (a history rewritten by a clearing keeps its blocks). */
const pdfPages = new WeakMap<object, number>();

/**
 * The tokens of an image: `width × height / 750` when its header states its size, never more
 * than `largest` (the API scales larger images down to about that).
 * @param source - the image block's `source`.
 * @param largest - the estimate for an image of unknown or large size.
 */
export function estimateImageTokens(source: unknown, largest: number): number {
  const { type, data } = (source ?? {}) as { type?: unknown; data?: unknown };
  if (type !== 'base64' || typeof data !== 'string') return largest;
  const size = imageDimensions(base64Reader(data));
  if (size === undefined) return largest;
  return Math.min(largest, Math.max(1, Math.ceil((size.width * size.height) / 750)));
}

/**
 * The pages of a base64 PDF: its page objects counted, else its size at {@link PDF_BYTES_PER_PAGE}
 * a page; at least 1 and at most {@link MAX_PDF_PAGES}.
 * @param block - the document block (the count is kept for it).
 * @param data - its base64 data.
 */
export function estimatePdfPages(block: object, data: string): number {
  let pages = pdfPages.get(block);
  if (pages === undefined) {
    const counted = countPageObjects(data);
    pages = Math.min(MAX_PDF_PAGES, Math.max(1, counted || Math.ceil(base64Bytes(data) / PDF_BYTES_PER_PAGE)));
    pdfPages.set(block, pages);
  }
  return pages;
}

/** The bytes base64 data decodes to. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** The page objects in a PDF's bytes, decoded a chunk at a time; 0 when it cannot be decoded. */
function countPageObjects(data: string): number {
  if (typeof atob !== 'function') return 0;
  let count = 0;
  let carry = '';
  for (let start = 0; start < data.length; start += CHUNK_CHARS) {
    let binary: string;
    try {
      binary = atob(data.slice(start, start + CHUNK_CHARS));
    } catch {
      return 0; // white space or a character base64 lacks: the size decides
    }
    const text = carry + binary;
    // A match that ends inside the carry was counted with the previous chunk.
    for (const match of text.matchAll(PAGE_OBJECT)) if (match.index + match[0].length > carry.length) count++;
    carry = text.slice(-CARRY);
  }
  return count;
}
