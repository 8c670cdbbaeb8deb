import { z } from 'zod/v4';
import { builtOncePerKey } from '../../tools/built-once-per-key.js';
import { checkOptions, isPositiveInteger, required, withMethods, type OptionsSpec } from '../../options/index.js';
import { codePointBoundary, headOfText } from '../../model/code-point-boundary.js';
import { defineTool } from '../../tools/define-tool.js';
import { toolOutput } from '../../tools/tool-output.js';
import type { Tool } from '../../tools/types.js';
import type { SpillStore } from './spill-store.js';
import { READ_TOOL_OUTPUT_TOOL_NAME } from './spill-tool-result.js';

/** Options of {@link readToolOutputTool}. */
export interface ReadToolOutputToolOptions {
  /** Where spilled outputs are kept. */
  store: SpillStore;
  /**
   * The most characters one call returns: a page, or the lines a search lists (each cut at 500
   * characters; the first match is always listed).
   * @default 20_000
   */
  pageChars?: number;
  /**
   * The most matching lines one search returns.
   * @default 100
   */
  maxMatches?: number;
}

const DESCRIPTION = `Read a tool output that was too long to show in full. Such results show only their beginning and end, with a note naming a handle like "out_toolu_…".
Give the handle and an offset (a character position, from the note or the previous page) to read the next part, or a search text to list the lines that contain it (case-insensitive), with their line numbers and offsets.`;

const READ_TOOL_OUTPUT_OPTIONS: OptionsSpec<ReadToolOutputToolOptions> = {
  store: required(withMethods('a spill store (memorySpillStore(), or your own implementing SpillStore)', ['save', 'load'])),
  pageChars: isPositiveInteger,
  maxMatches: isPositiveInteger,
};

function readToolOutputInput(pageChars: number) {
  return z.object({
    handle: z.string().min(1).describe('The handle named in the shortened result, e.g. "out_toolu_01A…".'),
    offset: z.number().int().min(0).optional().describe('Character position to start reading at. Default 0.'),
    length: z.number().int().min(1).max(pageChars).optional().describe(`How many characters to read, at most ${pageChars}.`),
    search: z.string().min(1).optional().describe('List the lines containing this text instead of reading a page (case-insensitive).'),
  });
}

/** The input schema per page size (the last 16 sizes): see `builtOncePerKey`. */
const inputFor = builtOncePerKey(readToolOutputInput, 16);

/**
 * The built-in, read-only `ReadToolOutput` tool: pages through outputs kept aside by
 * `spillToolResult`, by character offset, or lists the lines containing a text.
 * @param options - the store and page size; see {@link ReadToolOutputToolOptions}.
 */
export function readToolOutputTool(options: ReadToolOutputToolOptions): Tool {
  checkOptions<ReadToolOutputToolOptions>(options, READ_TOOL_OUTPUT_OPTIONS, { owner: 'readToolOutputTool', usage: 'readToolOutputTool({ store: memorySpillStore() })' });
  const pageChars = options.pageChars ?? 20_000;
  const maxMatches = options.maxMatches ?? 100;
  const input = inputFor(pageChars);
  return defineTool({
    name: READ_TOOL_OUTPUT_TOOL_NAME,
    description: DESCRIPTION,
    inputSchema: input,
    readOnly: true,
    execute: async ({ input: { handle, offset: asked = 0, length = pageChars, search } }) => {
      const output = await options.store.load(handle);
      // A store keyed by a plain object may hand back what it inherits for "constructor" and the like.
      if (!output || typeof output !== 'object' || !Object.hasOwn(output, 'text')) {
        return toolOutput(`No kept output has the handle "${handle}". Use the exact handle from the note of a shortened tool result; an output of an earlier session may no longer be kept.`, { isError: true });
      }
      // Kept, but damaged in the store (a transcript edited by hand): said so, not read as text.
      if (typeof output.text !== 'string') {
        return toolOutput(`The output kept as "${handle}" is damaged in the session's store (its text is not a string), so it cannot be read. Run the call that produced it again if that is safe.`, { isError: true });
      }
      const { text } = output;
      if (search !== undefined) return searchLines(handle, text, search, maxMatches, pageChars);
      if (asked >= text.length) {
        return toolOutput(`Offset ${asked} is past the end of "${handle}", which has ${text.length} characters.`, { isError: true });
      }
      // A page never starts or ends inside a surrogate pair; a page of one such half grows to the whole character.
      const offset = codePointBoundary(text, asked);
      const limit = Math.min(text.length, offset + length);
      const back = codePointBoundary(text, limit);
      const end = back > offset ? back : codePointBoundary(text, limit, 'forward');
      const where = `[${handle}: characters ${offset}–${end} of ${text.length}, from ${output.toolName}.${end < text.length ? ` Continue with offset ${end}.` : ' This is the end of the output.'}]`;
      return `${where}\n${text.slice(offset, end)}`;
    },
  });
}

/** Lists the lines containing `search`: at most `maxMatches`, and no more than `pageChars` of them (a page's worth). */
function searchLines(handle: string, text: string, search: string, maxMatches: number, pageChars: number): string {
  const needle = search.toLowerCase();
  const found: string[] = [];
  // Each listed line is cut at 500 characters, or less when a page is smaller.
  const lineChars = Math.min(500, pageChars);
  let listed = 0;
  let full = false;
  let total = 0;
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const content = text.slice(start, end);
    if (content.toLowerCase().includes(needle)) {
      total++;
      if (!full && found.length < maxMatches) {
        const entry = `${line} (offset ${start}): ${content.length > lineChars ? `${headOfText(content, lineChars)}…` : content}`;
        // The first match is always listed; later ones only while the listing stays within a page.
        if (found.length > 0 && listed + entry.length + 1 > pageChars) full = true;
        else {
          found.push(entry);
          listed += entry.length + 1;
        }
      }
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  if (total === 0) return `[${handle}: no line contains "${search}".]`;
  const more = total > found.length ? ` Showing the first ${found.length}; search for something more specific to see others.` : '';
  return `[${handle}: ${total} line(s) contain "${search}".${more}]\n${found.join('\n')}`;
}
