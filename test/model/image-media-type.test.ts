import { describe, expect, it } from 'vitest';
import { imageMediaType } from '../../src/model/image-media-type.js';

const bytes = (...parts: Array<string | number[]>) => Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((char) => char.charCodeAt(0)) : part)));

describe('imageMediaType', () => {
  it('reads the four types the API takes from their first bytes', () => {
    expect(imageMediaType(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe('image/png');
    expect(imageMediaType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageMediaType(bytes('GIF87a'))).toBe('image/gif');
    expect(imageMediaType(bytes('GIF89a'))).toBe('image/gif');
    expect(imageMediaType(bytes('RIFF', [1, 2, 3, 4], 'WEBP'))).toBe('image/webp');
  });

  it('answers undefined for anything else, a truncated signature included', () => {
    expect(imageMediaType(bytes('GIF88a'))).toBeUndefined();
    expect(imageMediaType(bytes('RIFF', [1, 2, 3, 4], 'WAVE'))).toBeUndefined();
    expect(imageMediaType(bytes([0x89], 'PNG'))).toBeUndefined();
    expect(imageMediaType(bytes('AAAA'))).toBeUndefined();
    expect(imageMediaType(new Uint8Array())).toBeUndefined();
  });
});
