import { describe, expect, it } from 'vitest';
import { base64Reader, bytesReader, imageDimensions } from '../../src/model/image-dimensions.js';

import { base64, be32, bytes, gifHeader, jpegHeader, le16, pngHeader, webpVp8, webpVp8l, webpVp8x } from './image-headers.js';

const of = (data: Uint8Array) => imageDimensions(bytesReader(data));

describe('imageDimensions', () => {
  it('reads the size from hand-built PNG, GIF, JPEG and WebP (lossy, lossless, extended) headers', () => {
    expect(of(pngHeader(8001, 3))).toEqual({ width: 8001, height: 3 });
    expect(of(pngHeader(0xffffffff, 1))).toEqual({ width: 0xffffffff, height: 1 });
    expect(of(gifHeader(640, 480))).toEqual({ width: 640, height: 480 });
    expect(of(jpegHeader(4032, 3024))).toEqual({ width: 4032, height: 3024 });
    expect(of(jpegHeader(2001, 10, { frame: 0xc2, exif: 60000 }))).toEqual({ width: 2001, height: 10 });
    expect(of(webpVp8(2048, 1536))).toEqual({ width: 2048, height: 1536 });
    expect(of(webpVp8l(16383, 9000))).toEqual({ width: 16383, height: 9000 });
    expect(of(webpVp8x(16777216, 7))).toEqual({ width: 16777216, height: 7 });
  });

  it('reads them from base64, decoding only what it needs', () => {
    const jpeg = jpegHeader(9000, 9000, { exif: 65000 });
    let decoded = 0;
    const reader = base64Reader(base64(jpeg));
    expect(imageDimensions((offset, length) => ((decoded += length), reader(offset, length)))).toEqual({ width: 9000, height: 9000 });
    expect(decoded).toBeLessThan(100);
    for (const image of [pngHeader(1, 2), gifHeader(3, 4), webpVp8(5, 6), webpVp8l(7, 8), webpVp8x(9, 10)]) {
      expect(imageDimensions(base64Reader(base64(image)))).toEqual(of(image));
    }
  });

  it('answers undefined for every truncation of each header, never throwing', () => {
    for (const image of [pngHeader(3000, 3000), gifHeader(3000, 3000), jpegHeader(3000, 3000), webpVp8(3000, 3000), webpVp8l(3000, 3000), webpVp8x(3000, 3000)]) {
      const needed = image.length - (image[1] === 0xd8 ? 4 : 0); // the JPEG's scan header is not needed
      for (let length = 0; length < needed; length++) {
        const cut = image.subarray(0, length);
        const found = of(cut);
        if (found !== undefined) expect(found).toEqual(of(image)); // everything the size needs was there
        expect(imageDimensions(base64Reader(base64(cut)))).toEqual(found);
      }
    }
  });

  it('answers undefined for hostile or foreign headers', () => {
    // JPEG: a segment length below 2 (would loop), a scan before any frame, the image's end, endless fill bytes, endless tiny segments.
    expect(of(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBeUndefined();
    expect(of(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 1]))).toBeUndefined();
    expect(of(bytes([0xff, 0xd8, 0xff, 0xda, 0, 12]))).toBeUndefined();
    expect(of(bytes([0xff, 0xd8, 0xff, 0xd9]))).toBeUndefined();
    expect(of(bytes([0xff, 0xd8], Array.from({ length: 5000 }, () => 0xff)))).toBeUndefined();
    expect(of(bytes([0xff, 0xd8], Array.from({ length: 5000 }, () => [0xff, 0xfe, 0, 2]).flat(), [0xff, 0xc0, 0, 17, 8, 0, 1, 0, 1]))).toBeUndefined();
    expect(of(bytes([0xff, 0xd8, 0x00, 0x00, 0, 0]))).toBeUndefined();
    // PNG without IHDR first, WebP with an unknown chunk or a bad start code, other formats.
    expect(of(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], be32(13), 'IDAT', be32(1), be32(1)))).toBeUndefined();
    expect(of(bytes('RIFF', be32(0), 'WEBP', 'VP9 ', be32(0), be32(0), be32(0), be32(0)))).toBeUndefined();
    expect(of(bytes('RIFF', be32(0), 'WEBP', 'VP8 ', le16(30), [0, 0], [0x30, 0x01, 0x00], [0x9d, 0x01, 0x2b], le16(1), le16(1)))).toBeUndefined();
    expect(of(bytes('RIFF', be32(0), 'WEBP', 'VP8L', le16(10), [0, 0], [0x2e, 0, 0, 0, 0]))).toBeUndefined();
    expect(of(bytes('BM', be32(0), be32(0)))).toBeUndefined();
    expect(of(new Uint8Array())).toBeUndefined();
  });

  it('base64 that is not base64, or holds white space, gives no size (atob would shift the offsets)', () => {
    expect(imageDimensions(base64Reader('!!!!' + base64(pngHeader(1, 1))))).toBeUndefined();
    const spaced = base64(jpegHeader(9000, 9000, { exif: 300 })).replace(/(.{76})/g, '$1\n');
    expect(imageDimensions(base64Reader(spaced))).toBeUndefined();
    expect(imageDimensions(base64Reader(''))).toBeUndefined();
  });
});
