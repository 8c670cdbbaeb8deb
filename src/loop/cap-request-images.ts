import type { ContentBlock, ImageBlock, Message, TextBlock, ToolResultBlock, ToolResultContentBlock } from '../model/messages.js';

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

function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

function note(image: ImageBlock): TextBlock {
  const source = image.source as { type: string; media_type?: string; data?: string; url?: string };
  const what =
    source.type === 'base64' && typeof source.data === 'string'
      ? `Image of type ${source.media_type} (${sizeOf(source.data)})`
      : typeof source.url === 'string'
        ? `Image ${source.url}`
        : `Image (${source.type} source)`;
  const block: TextBlock = {
    type: 'text',
    text: `[${what} not sent: a request may carry at most ${MAX_IMAGES_PER_REQUEST} images and 20 MB (base64) of them; the newest are kept]`,
  };
  if (image.cache_control) block.cache_control = image.cache_control;
  return block;
}

/** Every image block of the messages (tool results' images included), oldest first. */
function imagesOf(messages: readonly Message[]): ImageBlock[] {
  const images: ImageBlock[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'image') images.push(block as ImageBlock);
      else if (block.type === 'tool_result' && Array.isArray((block as ToolResultBlock).content)) {
        for (const inner of (block as ToolResultBlock).content as ToolResultContentBlock[]) if (inner.type === 'image') images.push(inner);
      }
    }
  }
  return images;
}

/**
 * The messages of a request within the API's image limits ({@link MAX_IMAGES_PER_REQUEST} images,
 * {@link MAX_IMAGE_BASE64_CHARS_PER_REQUEST} of base64 data): the newest images are kept, older
 * ones become a note naming what was left out. Each tool result bounds its own images, but the
 * results of parallel calls, and the turns before them, add up in one request, which the API
 * would refuse whole. Only the request is capped: the history keeps every image (a compaction or
 * clearing that removes newer ones lets older ones be sent again). Within the limits (nearly
 * always) the same array is returned, not a copy.
 */
export function capRequestImages(messages: readonly Message[]): readonly Message[] {
  const images = imagesOf(messages);
  if (images.length === 0) return messages;
  const dropped = new Set<ImageBlock>();
  let count = 0;
  let chars = 0;
  for (let index = images.length - 1; index >= 0; index--) {
    const image = images[index]!;
    const data = (image.source as { data?: unknown }).data;
    const size = typeof data === 'string' ? data.length : 0;
    if (count + 1 > MAX_IMAGES_PER_REQUEST || chars + size > MAX_IMAGE_BASE64_CHARS_PER_REQUEST) {
      dropped.add(image);
      continue;
    }
    count++;
    chars += size;
  }
  if (dropped.size === 0) return messages;
  const isDropped = (block: ContentBlock | ToolResultContentBlock) => block.type === 'image' && dropped.has(block as ImageBlock);
  const holdsDropped = (block: ContentBlock) => block.type === 'tool_result' && Array.isArray((block as ToolResultBlock).content) && ((block as ToolResultBlock).content as ToolResultContentBlock[]).some(isDropped);
  const capped = (block: ContentBlock): ContentBlock => {
    if (isDropped(block)) return note(block as ImageBlock);
    if (!holdsDropped(block)) return block;
    const result = block as ToolResultBlock;
    return { ...result, content: (result.content as ToolResultContentBlock[]).map((item) => (isDropped(item) ? note(item as ImageBlock) : item)) };
  };
  return messages.map((message) => {
    if (typeof message.content === 'string' || !message.content.some((block) => isDropped(block) || holdsDropped(block))) return message;
    return { ...message, content: message.content.map(capped) } as Message;
  });
}
