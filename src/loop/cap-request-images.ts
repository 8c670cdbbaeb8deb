import type { HistoryScan } from '../runtime/history-scan.js';
import type { ContentBlock, ImageBlock, Message, TextBlock, ToolResultBlock, ToolResultContentBlock } from '../model/messages.js';
import { base64Reader, imageDimensions, type ImageDimensions } from '../model/image-dimensions.js';
import { imageMediaType, type ImageMediaType } from '../model/image-media-type.js';
import { forEachMedia, type MediaBlock } from './for-each-media.js';

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

/** The most base64 data one image may have: the API refuses an image over 5 MB. */
export const MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024;

/**
 * Past the limit of {@link MAX_IMAGES_PER_REQUEST}, the oldest images are left out this many at a
 * time; past {@link MANY_IMAGES} with images larger than {@link MAX_IMAGE_SIDE_AMONG_MANY}, the
 * oldest large ones too. Leaving out only as many as the limit needs changes the request near its
 * start with every new image (an agent taking a screenshot a turn), and a request that changes
 * near its start reads nothing after that point from the prompt cache: every turn would write the
 * whole history again (1.25× the input price instead of 0.1×). Left out ten at a time, the
 * request stays the same for the next ten images, and the history is written again once in ten
 * turns: 60 turns of a 2560-pixel screenshot each read 88.8% of their input from the cache
 * instead of 23.1% (bench/context.bench.mjs), a third of the input price.
 */
export const IMAGES_LEFT_OUT_AT_ONCE = 10;

/** Past {@link MAX_IMAGE_BASE64_CHARS_PER_REQUEST}, the oldest images are left out by at least this much base64 at a time (see {@link IMAGES_LEFT_OUT_AT_ONCE}). */
export const IMAGE_CHARS_LEFT_OUT_AT_ONCE = 4 * 1024 * 1024;

/** `value` rounded up to a multiple of `step`. */
const roundUp = (value: number, step: number): number => Math.ceil(value / step) * step;

/** Why an image of a request is sent as a note. */
type DropReason = 'limits' | 'too-large' | 'large-among-many' | 'not-an-image' | 'too-heavy';

const reasons: Readonly<Record<DropReason, string>> = {
  limits: `a request may carry at most ${MAX_IMAGES_PER_REQUEST} images and 20 MB (base64) of them; the newest are kept`,
  'too-large': `the API takes no image larger than ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE} pixels`,
  'large-among-many': `a request of more than ${MANY_IMAGES} images may carry none larger than ${MAX_IMAGE_SIDE_AMONG_MANY}×${MAX_IMAGE_SIDE_AMONG_MANY} pixels; the newest are kept`,
  'not-an-image': 'its data is not a JPEG, PNG, GIF or WebP image, the only kinds the API takes',
  'too-heavy': 'the API takes no image over 5 MB (base64)',
};

/** What an image's bytes show: its size (when its header states it) and its type; for a base64 image only. */
interface ImageFacts {
  size: ImageDimensions | undefined;
  /** The type its first bytes show; undefined when they are none the API takes. */
  type: ImageMediaType | undefined;
}

/** By image block: what its bytes show (null: not a base64 image), read once. */
const facts = new WeakMap<ImageBlock, ImageFacts | null>();

function factsOf(image: ImageBlock): ImageFacts | undefined {
  let found = facts.get(image);
  if (found === undefined) {
    const data = (image.source as { data?: unknown } | undefined)?.data;
    if (typeof data === 'string' && image.source.type === 'base64') {
      const read = base64Reader(data);
      found = { size: imageDimensions(read), type: imageMediaType(read(0, 12) ?? new Uint8Array()) };
    } else found = null;
    facts.set(image, found);
  }
  return found ?? undefined;
}

/** Why the API would refuse this image whatever else the request holds, if it would. */
function unfit(image: ImageBlock): DropReason | undefined {
  const found = factsOf(image);
  if (found === undefined) return undefined;
  if (found.type === undefined) return 'not-an-image';
  if (charsOf(image) > MAX_IMAGE_BASE64_CHARS) return 'too-heavy';
  if (Math.max(found.size?.width ?? 0, found.size?.height ?? 0) > MAX_IMAGE_SIDE) return 'too-large';
  return undefined;
}

/** The media type its bytes show, when its label says another one (the API refuses the mismatch). */
function relabelled(image: ImageBlock): ImageMediaType | undefined {
  const type = factsOf(image)?.type;
  return type !== undefined && type !== (image.source as { media_type?: unknown }).media_type ? type : undefined;
}

/** The longer side of an image in pixels (0 when not known). */
function sideOf(image: ImageBlock): number {
  const size = factsOf(image)?.size;
  return size === undefined ? 0 : Math.max(size.width, size.height);
}

function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

function note(image: ImageBlock, reason: DropReason): TextBlock {
  const source = image.source as { type: string; media_type?: string; data?: string; url?: string };
  const size = reason === 'limits' || reason === 'not-an-image' ? undefined : factsOf(image)?.size;
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

const stopAtFirst = (): boolean => true;

/** Whether `messages[index]` holds an image or a document (in a tool result too): most hold neither. */
const holdsMedia = (messages: readonly Message[], index: number): boolean => forEachMedia(messages, stopAtFirst, index, index + 1);

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
  /** Images the API refuses in any request: larger than {@link MAX_IMAGE_SIDE}, over 5 MB, not an image, or labelled with a type their bytes are not. */
  tooLarge: number;
  /** Images larger than {@link MAX_IMAGE_SIDE_AMONG_MANY}. */
  large: number;
}

/** The tally of messages with no image and no document (read only, never stored). */
const NO_MEDIA: ImageTally = Object.freeze({ counted: 0, last: undefined, images: 0, chars: 0, documents: 0, documentChars: 0, tooLarge: 0, large: 0 });

/** By history array, for callers without a {@link MediaTallySlot}: the agent appends to its array, so each turn counts only the new messages. */
const tallies = new WeakMap<readonly Message[], ImageTally>();

/**
 * Where an agent keeps the tally of its history's media between requests: one slot per agent,
 * for the history array it sent last. A `WeakMap` entry per history array cost a whole run about
 * a microsecond (and the collector an ephemeron) for every agent's first request past the first
 * message.
 */
export type MediaTallySlot = Pick<HistoryScan, 'messages' | 'tally'>;

/**
 * The images and base64 characters of `messages`. The history's last message is counted each time
 * (a message of the same role joins it by replacing it); the ones before it once per array: a
 * history rewritten (a compaction, a clearing) is a new array, and a shrunk one or one whose
 * counted part changed is counted again from the start.
 */
function imageTotals(messages: readonly Message[], slot: MediaTallySlot | undefined): ImageTally {
  // A run's first request (one message, most often with no media) needs no tally to keep.
  if (messages.length <= 1 && (messages.length === 0 || !holdsMedia(messages, 0))) return NO_MEDIA;
  let tally = slot === undefined ? tallies.get(messages) : slot.messages === messages ? (slot.tally as ImageTally | undefined) : undefined;
  if (tally === undefined || tally.counted > messages.length - 1 || (tally.counted > 0 && messages[tally.counted - 1] !== tally.last)) {
    tally = { counted: 0, last: undefined, images: 0, chars: 0, documents: 0, documentChars: 0, tooLarge: 0, large: 0 };
    if (slot === undefined) tallies.set(messages, tally);
    else {
      slot.messages = messages;
      slot.tally = tally;
    }
  }
  const settled = Math.max(0, messages.length - 1);
  if (tally.counted < settled) {
    const counting = tally;
    // Most messages hold no media: the walk (and its closures) only for those that do.
    for (let index = tally.counted; index < settled; index++) {
      if (holdsMedia(messages, index)) forEachMedia(messages, (block) => tallyMedia(counting, block), index, index + 1);
    }
    tally.counted = settled;
    tally.last = messages[settled - 1];
  }
  if (settled === messages.length || !holdsMedia(messages, settled)) return tally;
  const totals: ImageTally = { ...tally };
  forEachMedia(messages, (block) => tallyMedia(totals, block), settled, messages.length);
  return totals;
}

function tallyMedia(tally: ImageTally, block: MediaBlock): void {
  if (block.type === 'image') return tallyImage(tally, block);
  tally.documents++;
  tally.documentChars += charsOf(block);
}

function tallyImage(tally: ImageTally, image: ImageBlock): void {
  tally.images++;
  tally.chars += charsOf(image);
  const side = sideOf(image);
  if (unfit(image) !== undefined || relabelled(image) !== undefined) tally.tooLarge++;
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
 * data (documents are always sent; the newest images take what they leave), none larger than
 * {@link MAX_IMAGE_SIDE} pixels a side, and, in a request of more than {@link MANY_IMAGES}
 * images, none larger than {@link MAX_IMAGE_SIDE_AMONG_MANY} a side (the oldest large ones are
 * left out until no large one or only {@link MANY_IMAGES} images remain). Past a limit, the
 * oldest images are left out a step at a time ({@link IMAGES_LEFT_OUT_AT_ONCE} images, large
 * ones too, or {@link IMAGE_CHARS_LEFT_OUT_AT_ONCE} of base64), the step a function of the
 * history alone: a request keeps its start, and so reads the history from the prompt cache, until
 * the next step. An image left out becomes a note saying what and why. Sizes are read from the
 * images' headers
 * (PNG, JPEG, GIF, WebP); a URL image, or one whose header is not understood, is sent as it is.
 * Each tool result bounds its own images, but the results of parallel calls, and the turns before
 * them, add up in one request, which the API would refuse whole. Only the request is capped: the
 * history keeps every image (a compaction or clearing that removes newer ones lets older ones be
 * sent again). Within the limits (nearly always) the same array is returned, not a copy.
 */
export function capRequestImages(messages: readonly Message[], slot?: MediaTallySlot): readonly Message[] {
  // Every turn asks, so the common answer (within the limits) costs the new messages only.
  const totals = imageTotals(messages, slot);
  if (withinLimits(totals)) return messages;
  // Documents are sent as they are; the images share what they leave of the media limit.
  const maxImages = Math.max(0, MAX_IMAGES_PER_REQUEST - totals.documents);
  const maxChars = Math.max(0, MAX_IMAGE_BASE64_CHARS_PER_REQUEST - totals.documentChars);
  const images: ImageBlock[] = [];
  forEachMedia(messages, (block) => void (block.type === 'image' && images.push(block)));
  const dropped = new Map<ImageBlock, DropReason>();
  // Oldest first. An image the API refuses in any request goes whatever the others are.
  const fitting: ImageBlock[] = [];
  let chars = 0;
  for (const image of images) {
    const refused = unfit(image);
    if (refused) dropped.set(image, refused);
    else {
      fitting.push(image);
      chars += charsOf(image);
    }
  }
  // The oldest images left out for the limits: a step of images past the count, and the oldest
  // whose base64 reaches a step of characters past the size. Each depends on the images before
  // the newest alone, so a new image changes it only when it crosses a step.
  const overCount = fitting.length - maxImages;
  let leftOut = overCount > 0 ? Math.min(fitting.length, roundUp(overCount, IMAGES_LEFT_OUT_AT_ONCE)) : 0;
  const overChars = chars - maxChars;
  if (overChars > 0) {
    const target = roundUp(overChars, IMAGE_CHARS_LEFT_OUT_AT_ONCE);
    let cut = 0;
    let index = 0;
    while (index < fitting.length && cut < target) cut += charsOf(fitting[index++]!);
    leftOut = Math.max(leftOut, index);
  }
  for (let index = 0; index < leftOut; index++) dropped.set(fitting[index]!, 'limits');
  // Of the rest, past MANY_IMAGES: the oldest large ones, a step of them past what brings the
  // request down to MANY_IMAGES (or all of them).
  const kept = fitting.length - leftOut;
  if (kept > MANY_IMAGES) {
    const large = fitting.slice(leftOut).filter((image) => sideOf(image) > MAX_IMAGE_SIDE_AMONG_MANY);
    const needed = Math.min(large.length, kept - MANY_IMAGES);
    const count = needed > 0 ? Math.min(large.length, roundUp(needed, IMAGES_LEFT_OUT_AT_ONCE)) : 0;
    for (let index = 0; index < count; index++) dropped.set(large[index]!, 'large-among-many');
  }
  const relabel = new Map<ImageBlock, ImageMediaType>();
  for (const image of images) {
    const type = dropped.has(image) ? undefined : relabelled(image);
    if (type) relabel.set(image, type);
  }
  if (dropped.size === 0 && relabel.size === 0) return messages;
  const isReplaced = (block: ContentBlock | ToolResultContentBlock) => block.type === 'image' && (dropped.has(block as ImageBlock) || relabel.has(block as ImageBlock));
  const noteFor = (image: ImageBlock): TextBlock | ImageBlock => {
    const type = relabel.get(image);
    // Sent with the type its bytes show (the history keeps the block as it was).
    return type ? { ...image, source: { ...(image.source as { type: 'base64'; media_type: string; data: string }), media_type: type } } : note(image, dropped.get(image)!);
  };
  const holdsDropped = (block: ContentBlock) => block.type === 'tool_result' && Array.isArray((block as ToolResultBlock).content) && ((block as ToolResultBlock).content as ToolResultContentBlock[]).some(isReplaced);
  const capped = (block: ContentBlock): ContentBlock => {
    if (isReplaced(block)) return noteFor(block as ImageBlock);
    if (!holdsDropped(block)) return block;
    const result = block as ToolResultBlock;
    return { ...result, content: (result.content as ToolResultContentBlock[]).map((item) => (isReplaced(item) ? noteFor(item as ImageBlock) : item)) };
  };
  return messages.map((message) => {
    if (typeof message.content === 'string' || !message.content.some((block) => isReplaced(block) || holdsDropped(block))) return message;
    return { ...message, content: message.content.map(capped) } as Message;
  });
}
