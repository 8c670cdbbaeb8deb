import type { ImageBlock, TextBlock } from '../model/messages.js';
import { toolOutput } from '../tools/tool-output.js';
import type { ToolOutput } from '../tools/types.js';
import { imageMediaType } from '../model/image-media-type.js';

/** Image types the Messages API takes in a tool result. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

type Block = TextBlock | ImageBlock;
type Raw = Record<string, unknown>;

const text = (value: string): TextBlock => ({ type: 'text', text: value });

function sizeOf(base64: unknown): string {
  const bytes = typeof base64 === 'string' ? Math.floor((base64.replace(/=+$/, '').length * 3) / 4) : 0;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

/** The largest image the Messages API takes: 5 MB, base64-encoded. */
const MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024;

/** The type the first bytes of base64 image data show, when it is one the API takes. */
function imageTypeOf(base64: string): string | undefined {
  let head: string;
  try {
    // 16 base64 characters are 12 bytes: enough for every signature.
    head = atob(base64.slice(0, 64).replace(/\s/g, '').slice(0, 16));
  } catch {
    return undefined;
  }
  return imageMediaType(Uint8Array.from(head, (char) => char.charCodeAt(0)));
}

/**
 * An image block the API takes, or a note: an image it would refuse (over its size limit, or
 * bytes that are not the image they claim) would stay in the history and fail every later
 * request. A mislabelled image goes with the type its bytes have.
 */
function image(mimeType: unknown, data: unknown, what: string): Block {
  if (typeof mimeType === 'string' && IMAGE_TYPES.has(mimeType) && typeof data === 'string' && data !== '') {
    if (data.length > MAX_IMAGE_BASE64_CHARS) return text(`[${what} of type ${mimeType} (${sizeOf(data)}) not shown: larger than the 5 MB (base64) an image may have for the model]`);
    const actual = imageTypeOf(data);
    if (actual === undefined) return text(`[${what} of type ${mimeType} (${sizeOf(data)}) not shown: its data is not a JPEG, PNG, GIF or WebP image]`);
    return { type: 'image', source: { type: 'base64', media_type: actual, data } };
  }
  return text(`[${what} of type ${String(mimeType)} (${sizeOf(data)}) not shown: only JPEG, PNG, GIF and WebP images can be passed on]`);
}

/** An embedded resource: its text, or an image, or a note naming what could not be shown. */
function resource(value: unknown): Block {
  const item = (value ?? {}) as Raw;
  const uri = typeof item.uri === 'string' ? item.uri : '(no uri)';
  const mime = typeof item.mimeType === 'string' ? item.mimeType : undefined;
  if (typeof item.text === 'string') return text(`Resource ${uri}${mime ? ` (${mime})` : ''}:\n${item.text}`);
  if (mime && IMAGE_TYPES.has(mime)) return image(mime, item.blob, `Resource ${uri}`);
  return text(`[Resource ${uri}${mime ? ` (${mime})` : ''}, ${sizeOf(item.blob)} of binary data, not shown]`);
}

/**
 * What one result may carry in images: the Messages API takes a request of at most 32 MB and 100
 * images, and a result stays in every later request, so a server answering with dozens of
 * full-size images would make the session's requests fail. Images past either bound become notes.
 * The request as a whole (parallel results, earlier turns) is capped in `loop/cap-request-images.ts`.
 */
const MAX_IMAGES_PER_RESULT = 20;
const MAX_IMAGE_BASE64_CHARS_PER_RESULT = 2 * MAX_IMAGE_BASE64_CHARS;

/** Images past the result's bounds become notes naming how many were left out and why. */
function withinImageBudget(blocks: Block[]): Block[] {
  let count = 0;
  let chars = 0;
  return blocks.map((item) => {
    if (item.type !== 'image' || item.source.type !== 'base64') return item;
    const size = item.source.data.length;
    if (count + 1 > MAX_IMAGES_PER_RESULT || chars + size > MAX_IMAGE_BASE64_CHARS_PER_RESULT) {
      return text(`[Image of type ${item.source.media_type} (${sizeOf(item.source.data)}) not shown: one result may hold at most ${MAX_IMAGES_PER_RESULT} images and 10 MB (base64) of them]`);
    }
    count++;
    chars += size;
    return item;
  });
}

function block(item: Raw): Block | undefined {
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' && item.text !== '' ? text(item.text) : undefined;
    case 'image':
      return image(item.mimeType, item.data, 'Image');
    case 'audio':
      return text(`[Audio of type ${String(item.mimeType)} (${sizeOf(item.data)}) not shown: the model does not take audio]`);
    case 'resource':
      return resource(item.resource);
    case 'resource_link': {
      const name = typeof item.name === 'string' ? item.name : 'resource';
      const description = typeof item.description === 'string' ? `: ${item.description}` : '';
      return text(`Resource link ${name} <${String(item.uri)}>${description}`);
    }
    default:
      return text(`[Content of type ${JSON.stringify(item.type)} not shown]`);
  }
}

/**
 * Turns an MCP `CallToolResult` into tool output for the model: text as text blocks, images as
 * image blocks, embedded resources as their text (binary ones as a note), audio and links as a
 * note; `structuredContent` as JSON when there is no other content; `isError` as an error result.
 * Images past 20, or past 10 MB (base64) together, become notes.
 * Empty text is dropped (the API refuses empty text blocks).
 * @param result - a result the SDK has already checked against the protocol's schema.
 */
export function mcpResultToOutput(result: { content?: unknown; structuredContent?: unknown; isError?: unknown }): ToolOutput {
  const items = Array.isArray(result.content) ? (result.content as Raw[]) : [];
  const blocks = withinImageBudget(items.map((item) => block(item ?? {})).filter((item): item is Block => item !== undefined));
  if (blocks.length === 0 && result.structuredContent !== undefined) blocks.push(text(JSON.stringify(result.structuredContent, null, 2)));
  const isError = result.isError === true;
  if (blocks.length === 0) return toolOutput(isError ? 'The tool reported an error without details.' : '(no output)', { isError });
  const onlyText = blocks.every((item) => item.type === 'text');
  return toolOutput(onlyText ? blocks.map((item) => (item as TextBlock).text).join('\n\n') : blocks, { isError });
}
