import type { ContentBlock, Message, TextBlock, ToolResultBlock, ToolResultContentBlock } from '../model/messages.js';
import { forEachMedia } from './for-each-media.js';
import type { MediaRefusal } from './media-refusal.js';

// The test of a refusal is a file of its own (read on every refused request); the repair below is
// loaded only when media is to be dropped (see recover-refused-media.ts).
export { mediaRefusal, type MediaRefusal } from './media-refusal.js';

/** Which messages a repair looks at: those sent since the model's last answer, or the whole history. */
export type MediaScope = 'newest' | 'all';

/** What {@link dropRefusedMedia} did. */
export interface DroppedMedia {
  /** The history with the media replaced by notes (a new array; untouched messages shared). */
  messages: Message[];
  /** How many images and documents were replaced. */
  images: number;
  documents: number;
}

type MediaBlock = ContentBlock & { type: 'image' | 'document'; source?: { type?: string; media_type?: string; data?: unknown; url?: unknown } };

/** Base64 characters of a media block (0 for a URL or file source). */
function charsOf(block: MediaBlock): number {
  const data = block.source?.data;
  return typeof data === 'string' ? data.length : 0;
}

function sizeOf(chars: number): string {
  const bytes = Math.floor((chars * 3) / 4);
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

function note(block: MediaBlock, refusal: MediaRefusal): TextBlock {
  const kind = block.type === 'image' ? 'Image' : 'Document';
  const source = block.source ?? {};
  const what =
    typeof source.data === 'string'
      ? `${kind} of type ${String(source.media_type)} (${sizeOf(source.data.length)})`
      : typeof source.url === 'string'
        ? `${kind} ${source.url.slice(0, 200)}`
        : `${kind} (${String(source.type)} source)`;
  const why = refusal === 'too-large' ? 'the request carrying it was too large for the API (HTTP 413)' : `the API could not process it`;
  const text: TextBlock = { type: 'text', text: `[${what} removed: ${why}. Ask the user for it again if you need it.]` };
  if ((block as { cache_control?: TextBlock['cache_control'] }).cache_control) text.cache_control = (block as { cache_control?: TextBlock['cache_control'] }).cache_control;
  return text;
}

/** Every media block of `messages[from..]`, tool results' included, oldest first. */
function mediaIn(messages: readonly Message[], from: number): MediaBlock[] {
  const found: MediaBlock[] = [];
  forEachMedia(messages, (block) => void found.push(block as MediaBlock), from);
  return found;
}

/** Every media block's path a refusal names, e.g. `messages.3.content.1.image.source.base64` (see {@link MEDIA_SOURCE_PATH}). */
const NAMED_MEDIA_PATH = /(?:^|: )messages\.(\d+)\.content\.(\d+)(?:\.tool_result\.content\.(\d+))?\.(image|document)\.source\b/gi;

/** The item at `index` of `list`, when `list` is an array and `index` one of its own indices. */
function at<T>(list: unknown, index: string | undefined): T | undefined {
  if (!Array.isArray(list) || index === undefined) return undefined;
  const position = Number(index);
  return Number.isSafeInteger(position) && position < list.length ? (list[position] as T) : undefined;
}

/**
 * The media blocks of `messages` that the refusal's text names by their path in the request (the
 * request's messages and blocks are the history's, position for position: capped images become
 * notes in place). A path is taken only when it leads to a block of the kind it names and the
 * refusal is about (an image for an image refusal): anything else names nothing.
 */
function namedMedia(messages: readonly Message[], refusal: MediaRefusal, refusalText: string): MediaBlock[] {
  const kind = refusal === 'unprocessable-image' ? 'image' : refusal === 'unprocessable-document' ? 'document' : undefined;
  if (kind === undefined) return [];
  const found: MediaBlock[] = [];
  for (const [, message, block, inner, named] of refusalText.matchAll(NAMED_MEDIA_PATH)) {
    if (named!.toLowerCase() !== kind) continue;
    let target = at<{ type: string; content?: unknown }>(at<Message>(messages, message)?.content, block);
    if (inner !== undefined) target = target?.type === 'tool_result' ? at<{ type: string }>(target.content, inner) : undefined;
    if (target !== undefined && target.type === kind && !found.includes(target as MediaBlock)) found.push(target as MediaBlock);
  }
  return found;
}

/** Which media blocks a refusal drops: see {@link dropRefusedMedia}. */
function chooseMedia(candidates: MediaBlock[], refusal: MediaRefusal): MediaBlock[] {
  if (refusal === 'unprocessable-image') return candidates.filter((block) => block.type === 'image');
  if (refusal === 'unprocessable-document') return candidates.filter((block) => block.type === 'document');
  // Too large: the largest first, until what is left is at most half of what was sent.
  const total = candidates.reduce((sum, block) => sum + charsOf(block), 0);
  if (total === 0) return [];
  const chosen: MediaBlock[] = [];
  let left = total;
  for (const block of [...candidates].sort((a, b) => charsOf(b) - charsOf(a))) {
    if (left <= total / 2 || charsOf(block) === 0) break;
    chosen.push(block);
    left -= charsOf(block);
  }
  return chosen;
}

/**
 * The history with the media a refusal blames replaced by short notes, or undefined when there
 * is none to replace. When the refusal's text names blocks by their path in the request
 * (`messages.3.content.1.image.source.base64: image exceeds 5 MB maximum: …`), only those are
 * replaced, wherever they are in the history. Otherwise ("Could not process image" says no more)
 * the block is one sent since the model's last answer, the request before this one having been
 * accepted (`scope: 'newest'`); a history loaded already broken, or a second refusal, takes the
 * whole history (`'all'`). For an image the API could not process, every image in scope is
 * replaced (a PDF: every document); for a request too large, the largest images and documents
 * (base64) until at most half of their data is left.
 * @param refusalText - the refusal's message, read for the paths it names (none: the scope's media).
 */
export function dropRefusedMedia(messages: readonly Message[], refusal: MediaRefusal, scope: MediaScope, refusalText = ''): DroppedMedia | undefined {
  const named = namedMedia(messages, refusal, refusalText);
  if (named.length > 0) return replaceMedia(messages, new Set(named), refusal, 0);
  let from = 0;
  if (scope === 'newest') {
    for (let index = messages.length - 1; index >= 0; index--) {
      if (messages[index]!.role === 'assistant') {
        from = index + 1;
        break;
      }
    }
  }
  const dropped = new Set<ContentBlock | ToolResultContentBlock>(chooseMedia(mediaIn(messages, from), refusal));
  if (dropped.size === 0) return undefined;
  return replaceMedia(messages, dropped, refusal, from);
}

/** `messages` with the `dropped` blocks (all in `messages[from..]`) replaced by notes. */
function replaceMedia(messages: readonly Message[], dropped: ReadonlySet<ContentBlock | ToolResultContentBlock>, refusal: MediaRefusal, from: number): DroppedMedia {
  let images = 0;
  let documents = 0;
  const replace = <T extends ContentBlock | ToolResultContentBlock>(block: T): T | TextBlock => {
    if (!dropped.has(block)) return block;
    if (block.type === 'image') images++;
    else documents++;
    return note(block as MediaBlock, refusal);
  };
  const replaced = messages.map((message, index) => {
    if (index < from || typeof message.content === 'string') return message;
    let changed = false;
    const content = message.content.map((block) => {
      if (dropped.has(block)) {
        changed = true;
        return replace(block);
      }
      if (block.type !== 'tool_result' || !Array.isArray((block as ToolResultBlock).content)) return block;
      const inner = (block as ToolResultBlock).content as ToolResultContentBlock[];
      if (!inner.some((item) => dropped.has(item))) return block;
      changed = true;
      return { ...block, content: inner.map(replace) } as ContentBlock;
    });
    return changed ? ({ ...message, content } as Message) : message;
  });
  return { messages: replaced, images, documents };
}
