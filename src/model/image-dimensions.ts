/** An image's size in pixels, as its header states it. */
export interface ImageDimensions {
  width: number;
  height: number;
}

/**
 * Random access to an image's bytes: the `length` bytes from `offset`, fewer (or none) where the
 * image ends, undefined where they cannot be read. Lets a header be read without decoding the
 * whole image (a JPEG's size sits after its metadata segments, anywhere in the file).
 */
export type ImageBytes = (offset: number, length: number) => Uint8Array | undefined;

/** Past this many JPEG segments before the frame header the size is given up on (hostile input). */
const MAX_JPEG_SEGMENTS = 1024;

const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));

function matches(read: ImageBytes, offset: number, expected: readonly number[]): boolean {
  const bytes = read(offset, expected.length);
  return bytes !== undefined && bytes.length === expected.length && expected.every((byte, index) => bytes[index] === byte);
}

/** Exactly `length` bytes at `offset`, or undefined. */
function exactly(read: ImageBytes, offset: number, length: number): Uint8Array | undefined {
  const bytes = read(offset, length);
  return bytes !== undefined && bytes.length === length ? bytes : undefined;
}

const u16be = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
const u16le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);
const u24le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
const u32be = (bytes: Uint8Array, at: number) => bytes[at]! * 0x1000000 + ((bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** PNG: the IHDR chunk, always first, holds width and height (big-endian, 4 bytes each). */
function png(read: ImageBytes): ImageDimensions | undefined {
  if (!matches(read, 12, ascii('IHDR'))) return undefined;
  const bytes = exactly(read, 16, 8);
  return bytes && { width: u32be(bytes, 0), height: u32be(bytes, 4) };
}

/** GIF: the logical screen size right after the signature (little-endian, 2 bytes each). */
function gif(read: ImageBytes): ImageDimensions | undefined {
  const bytes = exactly(read, 6, 4);
  return bytes && { width: u16le(bytes, 0), height: u16le(bytes, 2) };
}

/** WebP: the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended, with the canvas size). */
function webp(read: ImageBytes): ImageDimensions | undefined {
  const chunk = exactly(read, 12, 4);
  if (!chunk) return undefined;
  const fourcc = String.fromCharCode(...chunk);
  if (fourcc === 'VP8 ') {
    // A key frame: 3 bytes of frame tag, the start code 9d 01 2a, then 14-bit width and height.
    const bytes = exactly(read, 23, 7);
    if (!bytes || bytes[0] !== 0x9d || bytes[1] !== 0x01 || bytes[2] !== 0x2a) return undefined;
    return { width: u16le(bytes, 3) & 0x3fff, height: u16le(bytes, 5) & 0x3fff };
  }
  if (fourcc === 'VP8L') {
    // The signature 0x2f, then width - 1 and height - 1 in 14 bits each.
    const bytes = exactly(read, 20, 5);
    if (!bytes || bytes[0] !== 0x2f) return undefined;
    const bits = bytes[1]! | (bytes[2]! << 8) | (bytes[3]! << 16) | (bytes[4]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (fourcc === 'VP8X') {
    // Flags and reserved bytes, then canvas width - 1 and height - 1 in 24 bits each.
    const bytes = exactly(read, 24, 6);
    return bytes && { width: u24le(bytes, 0) + 1, height: u24le(bytes, 3) + 1 };
  }
  return undefined;
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic): C0–CF but C4 (DHT), C8 (JPG), CC (DAC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** JPEG: walks the segments (metadata first, of any length) to the frame header holding the size. */
function jpeg(read: ImageBytes): ImageDimensions | undefined {
  let offset = 2;
  for (let segment = 0; segment < MAX_JPEG_SEGMENTS; segment++) {
    const head = exactly(read, offset, 4);
    if (!head || head[0] !== 0xff) return undefined;
    const marker = head[1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte before a marker
      continue;
    }
    // Markers without a length: restart markers, TEM.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    // End of image or start of scan before any frame header: no size to be had.
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = u16be(head, 2);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      const frame = exactly(read, offset + 5, 4);
      return frame && { width: u16be(frame, 2), height: u16be(frame, 0) };
    }
    offset += 2 + length;
  }
  return undefined;
}

/**
 * The width and height an image's header states, for the four types the Messages API takes (PNG,
 * JPEG, GIF, WebP; told apart by their bytes, not by a label); undefined for anything else and for
 * a header that is truncated or malformed. Reads only the header, never decodes pixels.
 * @param read - the image's bytes, read on demand; see {@link ImageBytes}.
 */
export function imageDimensions(read: ImageBytes): ImageDimensions | undefined {
  if (matches(read, 0, PNG)) return png(read);
  if (matches(read, 0, [0xff, 0xd8])) return jpeg(read);
  if (matches(read, 0, ascii('GIF87a')) || matches(read, 0, ascii('GIF89a'))) return gif(read);
  if (matches(read, 0, ascii('RIFF')) && matches(read, 8, ascii('WEBP'))) return webp(read);
  return undefined;
}

/** {@link ImageBytes} over bytes in memory. */
export function bytesReader(bytes: Uint8Array): ImageBytes {
  return (offset, length) => (offset < 0 || length < 0 ? undefined : bytes.subarray(offset, offset + length));
}

/**
 * {@link ImageBytes} over base64 text (an image block's `data`), decoding only the 4-character
 * groups a read needs, so finding the size of a 5 MB image decodes a few hundred bytes.
 * A read over characters that are not base64 (white space included) answers undefined.
 */
export function base64Reader(data: string): ImageBytes {
  const decode = typeof atob === 'function' ? atob : undefined;
  return (offset, length) => {
    if (decode === undefined || offset < 0 || length < 0) return undefined;
    const firstGroup = Math.floor(offset / 3);
    const start = firstGroup * 4;
    if (start >= data.length) return new Uint8Array();
    const text = data.slice(start, Math.ceil((offset + length) / 3) * 4);
    // atob skips white space, which would shift every offset after it: such data is not read.
    if (/\s/.test(text)) return undefined;
    let binary: string;
    try {
      binary = decode(text);
    } catch {
      return undefined;
    }
    const skip = offset - firstGroup * 3;
    const bytes = new Uint8Array(Math.max(0, Math.min(length, binary.length - skip)));
    for (let index = 0; index < bytes.length; index++) bytes[index] = binary.charCodeAt(skip + index);
    return bytes;
  };
}
