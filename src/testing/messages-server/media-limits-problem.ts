import { base64Reader, imageDimensions } from '../../model/image-dimensions.js';
import { blocksOf, type RawMessage } from './tool-result-problem.js';

/** The most images and documents one request may carry. */
const MAX_MEDIA = 100;
/** No image may be larger than this a side. */
const MAX_SIDE = 8000;
/** In a request of more than {@link MANY} images, no image may be larger than this a side. */
const MAX_SIDE_AMONG_MANY = 2000;
const MANY = 20;

interface FoundImage {
  path: string;
  side: number;
}

/**
 * The media rules of the real API, with its wording: at most 100 images and documents together
 * (`too many images and documents: 104 + 1 > 100`), no image over 8000 pixels a side, and none
 * over 2000 in a request of more than 20 images (`messages.N.content.P.image.source.base64.data:
 * At least one of the image dimensions exceed max allowed size for many-image requests: 2000
 * pixels`). Sizes are read from the base64 images' headers; a URL image's size is not known here.
 * @param messages - the request's messages, already checked to be a list of message objects.
 */
export function mediaLimitsProblem(messages: RawMessage[]): string | undefined {
  const images: FoundImage[] = [];
  let documents = 0;
  const visit = (block: Record<string, unknown>, path: string) => {
    if (block.type === 'document') documents++;
    if (block.type !== 'image') return;
    const source = block.source as { type?: unknown; data?: unknown } | undefined;
    const size = source?.type === 'base64' && typeof source.data === 'string' ? imageDimensions(base64Reader(source.data)) : undefined;
    images.push({ path: `${path}.image.source.base64.data`, side: size ? Math.max(size.width, size.height) : 0 });
  };
  messages.forEach((message, index) => {
    blocksOf(message).forEach((block, position) => {
      if (typeof block !== 'object' || block === null) return;
      const path = `messages.${index}.content.${position}`;
      visit(block, path);
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        (block.content as Array<Record<string, unknown>>).forEach((inner, at) => typeof inner === 'object' && inner !== null && visit(inner, `${path}.content.${at}`));
      }
    });
  });
  if (images.length + documents > MAX_MEDIA) return `too many images and documents: ${images.length} + ${documents} > ${MAX_MEDIA}`;
  const tooLarge = images.find((image) => image.side > MAX_SIDE);
  if (tooLarge) return `${tooLarge.path}: At least one of the image dimensions exceed max allowed size: ${MAX_SIDE} pixels`;
  const large = images.length > MANY ? images.find((image) => image.side > MAX_SIDE_AMONG_MANY) : undefined;
  if (large) return `${large.path}: At least one of the image dimensions exceed max allowed size for many-image requests: ${MAX_SIDE_AMONG_MANY} pixels`;
  return undefined;
}
