/** Hand-built image headers (PNG, GIF, JPEG, WebP) of a chosen size, for the header parser and the request cap. */
export const bytes = (...parts: Array<string | number[]>) => Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((char) => char.charCodeAt(0)) : part)));
export const be32 = (value: number) => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
export const be16 = (value: number) => [(value >>> 8) & 0xff, value & 0xff];
export const le16 = (value: number) => [value & 0xff, (value >>> 8) & 0xff];
export const le24 = (value: number) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
export const base64 = (data: Uint8Array) => btoa(String.fromCharCode(...data));

export const pngHeader = (width: number, height: number) => bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], be32(13), 'IHDR', be32(width), be32(height), [8, 6, 0, 0, 0], be32(0));
export const gifHeader = (width: number, height: number) => bytes('GIF89a', le16(width), le16(height), [0, 0, 0]);
/** A JPEG with an APP0 segment, an APP1 (Exif) segment of `exif` bytes, a DQT, then the frame header. */
export const jpegHeader = (width: number, height: number, { exif = 20, frame = 0xc0 } = {}) =>
  bytes(
    [0xff, 0xd8],
    [0xff, 0xe0], be16(16), 'JFIF', [0, 1, 1, 0, 0, 1, 0, 1, 0, 0],
    [0xff, 0xe1], be16(exif + 2), Array.from({ length: exif }, (_, index) => index & 0xff),
    [0xff, 0xdb], be16(67), Array.from({ length: 65 }, () => 1),
    [0xff, 0xff], // a fill byte before the next marker
    [0xff, frame], be16(17), [8], be16(height), be16(width), [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1],
    [0xff, 0xda], be16(12),
  );
export const webpVp8 = (width: number, height: number) => bytes('RIFF', be32(0), 'WEBP', 'VP8 ', le16(30), [0, 0], [0x30, 0x01, 0x00], [0x9d, 0x01, 0x2a], le16(width), le16(height));
export const webpVp8l = (width: number, height: number) => {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  return bytes('RIFF', be32(0), 'WEBP', 'VP8L', le16(10), [0, 0], [0x2f, bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, (bits >>> 24) & 0xff]);
};
export const webpVp8x = (width: number, height: number) => bytes('RIFF', be32(0), 'WEBP', 'VP8X', le16(10), [0, 0], [0x10, 0, 0, 0], le24(width - 1), le24(height - 1));
