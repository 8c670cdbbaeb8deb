import type { ContentBlock, ImageBlock, Message, TextBlock, ToolResultBlock, ToolResultContentBlock } from '../model/messages.js';
import { base64Reader, imageDimensions, type ImageDimensions } from '../model/image-dimensions.js';

/**
 * The most images one request carries: the Messages API refuses a request with more (100 for
 * models with a 200k-token window; the others take more, but 100 is safe for every model).
 */
export const MAX_IMAGES_PER_REQUEST = 100;

/**
 * The most base64 image data one request carries: the API refuses a request over 32 MB, and the
 * rest of it (text, documents, tool definitions) needs room too.
 */
export const MAX_IMAGE_BASE64_CHARS_PER_REQUEST = 20 * 1024 * 1024;

/** The API refuses an image wider or taller than this many pixels, in any request. */
export const MAX_IMAGE_SIDE = 8000;

/** In a request of more than {@link MANY_IMAGES} images, the API refuses one wider or taller than this. */
export const MAX_IMAGE_SIDE_AMONG_MANY = 2000;

/** Past this many images in one request, {@link MAX_IMAGE_SIDE_AMONG_MANY} applies. */
export const MANY_IMAGES = 20;

/** Why an image of a request is sent as a note. */
type DropReason = 'limits' | 'too-large' | 'large-among-many';

const reasons: Readonly<Record<DropReason, string>> = {
  limits: `a request may carry at most ${MAX_IMAGES_PER_REQUEST} images and 20 MB (base64) of them; the newest are kept`,
  'too-large': `the API takes no image larger than ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE} pixels`,
  'large-among-many': `a request of more than ${MANY_IMAGES} images may carry none larger than ${MAX_IMAGE_SIDE_AMONG_MANY}×${MAX_IMAGE_SIDE_AMONG_MANY} pixels; the newest are kept`,
};

/** By image block: its size as its header states it (null: not known), read once. */
const dimensions = new WeakMap<ImageBlock, ImageDimensions | null>();

/** The size of a base64 image, from its header; undefined for a URL or file source, or a header not understood. */
function dimensionsOf(image: ImageBlock): ImageDimensions | undefined {
  let found = dimensions.get(image);
  if (found === undefined) {
    const data = (image.source as { data?: unknown }).data;
    found = (typeof data === 'string' && image.source.type === 'base64' ? imageDimensions(base64Reader(data)) : undefined) ?? null;
    dimensions.set(image, found);
  }
  return found ?? undefined;
}

/** The longer side of an image in pixels (0 when not known). */
function sideOf(image: ImageBlock): number {
  const size = dimensionsOf(image);
  return size === undefined ? 0 : Math.max(size.width, size.height);
}

function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

function note(image: ImageBlock, reason: DropReason): TextBlock {
  const source = image.source as { type: string; media_type?: string; data?: string; url?: string };
  const size = reason === 'limits' ? undefined : dimensionsOf(image);
  const pixels = size === undefined ? '' : `${size.width}×${size.height} pixels, `;
  const what =
    source.type === 'base64' && typeof source.data === 'string'
      ? `Image of type ${source.media_type} (${pixels}${sizeOf(source.data)})`
      : typeof source.url === 'string'
        ? `Image ${source.url}`
        : `Image (${source.type} source)`;
  const block: TextBlock = { type: 'text', text: `[${what} not sent: ${reasons[reason]}]` };
  if (image.cache_control) block.cache_control = image.cache_control;
  return block;
}

/**
 * Calls `visit` with every image block of `messages[from..to)` (tool results' images included),
 * oldest first, and `visitDocument` with every document block.
 */
function forEachImage(messages: readonly Message[], visit: (image: ImageBlock) => void, from = 0, to = messages.length, visitDocument?: (document: ContentBlock) => void): void {
  for (let index = from; index < to; index++) {
    const content = messages[index]!.content;
    if (typeof content === 'string') continue;
    for (const block of content) {
      if (block.type === 'image') visit(block as ImageBlock);
      else if (block.type === 'document') visitDocument?.(block);
      else if (block.type === 'tool_result' && Array.isArray((block as ToolResultBlock).content)) {
        for (const inner of (block as ToolResultBlock).content as ToolResultContentBlock[]) {
          if (inner.type === 'image') visit(inner);
          else if ((inner as { type: string }).type === 'document') visitDocument?.(inner as unknown as ContentBlock);
        }
      }
    }
  }
}

/** The base64 characters of an image or a document (0 for a URL, file or text source). */
function charsOf(image: ImageBlock | ContentBlock): number {
  const data = (image as { source?: { data?: unknown } }).source?.data;
  return typeof data === 'string' ? data.length : 0;
}

/** The images and base64 characters of a messages array's first `counted` messages, the last of them `last`. */
interface ImageTally {
  counted: number;
  last: Message | undefined;
  images: number;
  chars: number;
  /** Document blocks: the API counts them toward the same limit of {@link MAX_IMAGES_PER_REQUEST}. */
  documents: number;
  /** Base64 characters of the documents: the request's size limit is shared with the images. */
  documentChars: number;
  /** Images larger than {@link MAX_IMAGE_SIDE}. */
  tooLarge: number;
  /** Images larger than {@link MAX_IMAGE_SIDE_AMONG_MANY}. */
  large: number;
}

/** By history array: the agent appends to its array, so each turn counts only the new messages. */
const tallies = new WeakMap<readonly Message[], ImageTally>();

/**
 * The images and base64 characters of `messages`. The history's last message is counted each time
 * (a message of the same role joins it by replacing it); the ones before it once per array: a
 * history rewritten (a compaction, a clearing) is a new array, and a shrunk one or one whose
 * counted part changed is counted again from the start.
 */
function imageTotals(messages: readonly Message[]): ImageTally {
  let tally = tallies.get(messages);
  if (tally === undefined || tally.counted > messages.length - 1 || (tally.counted > 0 && messages[tally.counted - 1] !== tally.last)) {
    tally = { counted: 0, last: undefined, images: 0, chars: 0, documents: 0, documentChars: 0, tooLarge: 0, large: 0 };
    tallies.set(messages, tally);
  }
  const settled = Math.max(0, messages.length - 1);
  if (tally.counted < settled) {
    const counting = tally;
    forEachImage(messages, (image) => tallyImage(counting, image), tally.counted, settled, (document) => tallyDocument(counting, document));
    tally.counted = settled;
    tally.last = messages[settled - 1];
  }
  if (settled === messages.length) return tally;
  const totals: ImageTally = { ...tally };
  forEachImage(messages, (image) => tallyImage(totals, image), settled, messages.length, (document) => tallyDocument(totals, document));
  return totals;
}

function tallyDocument(tally: ImageTally, document: ContentBlock): void {
  tally.documents++;
  tally.documentChars += charsOf(document);
}

function tallyImage(tally: ImageTally, image: ImageBlock): void {
  tally.images++;
  tally.chars += charsOf(image);
  const side = sideOf(image);
  if (side > MAX_IMAGE_SIDE) tally.tooLarge++;
  if (side > MAX_IMAGE_SIDE_AMONG_MANY) tally.large++;
}

/** Whether a request with these images is within every limit of the API. */
function withinLimits(tally: Omit<ImageTally, 'counted' | 'last'>): boolean {
  return (
    tally.images + tally.documents <= MAX_IMAGES_PER_REQUEST &&
    tally.chars + tally.documentChars <= MAX_IMAGE_BASE64_CHARS_PER_REQUEST &&
    tally.tooLarge === 0 &&
    (tally.images <= MANY_IMAGES || tally.large === 0)
  );
}

/**
 * The messages of a request within the API's image limits: at most {@link MAX_IMAGES_PER_REQUEST}
 * images and documents together, and {@link MAX_IMAGE_BASE64_CHARS_PER_REQUEST} of their base64
 * data (documents are always sent; the images, newest first, take what they leave), none
 * larger than {@link MAX_IMAGE_SIDE} pixels a side, and, in a request of more than
 * {@link MANY_IMAGES} images, none larger than {@link MAX_IMAGE_SIDE_AMONG_MANY} a side (the
 * oldest large ones are left out until no large one or only {@link MANY_IMAGES} images remain).
 * An image left out becomes a note saying what and why. Sizes are read from the images' headers
 * (PNG, JPEG, GIF, WebP); a URL image, or one whose header is not understood, is sent as it is.
 * Each tool result bounds its own images, but the results of parallel calls, and the turns before
 * them, add up in one request, which the API would refuse whole. Only the request is capped: the
 * history keeps every image (a compaction or clearing that removes newer ones lets older ones be
 * sent again). Within the limits (nearly always) the same array is returned, not a copy.
 */
export function capRequestImages(messages: readonly Message[]): readonly Message[] {
  // Every turn asks, so the common answer (within the limits) costs the new messages only.
  const totals = imageTotals(messages);
  if (withinLimits(totals)) return messages;
  // Documents are sent as they are; the images share what they leave of the media limit.
  const maxImages = Math.max(0, MAX_IMAGES_PER_REQUEST - totals.documents);
  const maxChars = Math.max(0, MAX_IMAGE_BASE64_CHARS_PER_REQUEST - totals.documentChars);
  const images: ImageBlock[] = [];
  forEachImage(messages, (image) => void images.push(image));
  const dropped = new Map<ImageBlock, DropReason>();
  let count = 0;
  let chars = 0;
  for (let index = images.length - 1; index >= 0; index--) {
    const image = images[index]!;
    if (sideOf(image) > MAX_IMAGE_SIDE) {
      dropped.set(image, 'too-large');
      continue;
    }
    const size = charsOf(image);
    if (count + 1 > maxImages || chars + size > maxChars) {
      dropped.set(image, 'limits');
      continue;
    }
    count++;
    chars += size;
  }
  // Oldest first: each large image left out may bring the request down to MANY_IMAGES, where the
  // newer large ones may stay.
  for (const image of images) {
    if (count <= MANY_IMAGES) break;
    if (dropped.has(image) || sideOf(image) <= MAX_IMAGE_SIDE_AMONG_MANY) continue;
    dropped.set(image, 'large-among-many');
    count--;
  }
  if (dropped.size === 0) return messages;
  const isDropped = (block: ContentBlock | ToolResultContentBlock) => block.type === 'image' && dropped.has(block as ImageBlock);
  const noteFor = (image: ImageBlock) => note(image, dropped.get(image)!);
  const holdsDropped = (block: ContentBlock) => block.type === 'tool_result' && Array.isArray((block as ToolResultBlock).content) && ((block as ToolResultBlock).content as ToolResultContentBlock[]).some(isDropped);
  const capped = (block: ContentBlock): ContentBlock => {
    if (isDropped(block)) return noteFor(block as ImageBlock);
    if (!holdsDropped(block)) return block;
    const result = block as ToolResultBlock;
    return { ...result, content: (result.content as ToolResultContentBlock[]).map((item) => (isDropped(item) ? noteFor(item as ImageBlock) : item)) };
  };
  return messages.map((message) => {
    if (typeof message.content === 'string' || !message.content.some((block) => isDropped(block) || holdsDropped(block))) return message;
    return { ...message, content: message.content.map(capped) } as Message;
  });
}
