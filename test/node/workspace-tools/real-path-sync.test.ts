import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existingRealPath, realPathSync } from '../../../src/node/workspace-tools/real-path-sync.js';
import { makeTempDir } from './helpers.js';

let base: string;
beforeEach(async () => {
  base = fs.realpathSync(await makeTempDir('ws-realpath-'));
  fs.mkdirSync(path.join(base, 'target', 'inner'), { recursive: true });
  fs.symlinkSync(path.join(base, 'target'), path.join(base, 'link'));
  fs.symlinkSync(path.join(base, 'missing-target'), path.join(base, 'dangling'));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(base, { recursive: true, force: true });
});

const cases = () => [
  [path.join(base, 'link', 'inner'), path.join(base, 'target', 'inner')],
  [path.join(base, 'link', 'new-file.md'), path.join(base, 'target', 'new-file.md')],
  [path.join(base, 'dangling'), path.join(base, 'missing-target')],
  [path.join(base, 'link', '..', 'link'), path.join(base, 'target')],
];

describe('realPathSync', () => {
  it('follows links, also for a path that does not exist yet and a dangling link', () => {
    for (const [asked, real] of cases()) expect(realPathSync(asked!)).toBe(real);
  });

  it('gives the same answers when the C library call cannot answer (musl without /proc): Node walks the path itself', () => {
    const native = vi.spyOn(fs.realpathSync, 'native').mockImplementation(() => {
      throw Object.assign(new Error('ENOSYS: function not implemented, realpath'), { code: 'ENOSYS' });
    });
    for (const [asked, real] of cases()) expect(realPathSync(asked!)).toBe(real);
    expect(native).toHaveBeenCalled();
  });
});

describe('existingRealPath', () => {
  it('follows links to an existing path, and throws the walk\'s ENOENT for a missing one, also when the C library call cannot answer', () => {
    expect(existingRealPath(path.join(base, 'link', 'inner'))).toBe(path.join(base, 'target', 'inner'));
    expect(() => existingRealPath(path.join(base, 'dangling'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    vi.spyOn(fs.realpathSync, 'native').mockImplementation(() => {
      throw Object.assign(new Error('ENOSYS: function not implemented, realpath'), { code: 'ENOSYS' });
    });
    expect(existingRealPath(path.join(base, 'link', 'inner'))).toBe(path.join(base, 'target', 'inner'));
    expect(() => existingRealPath(path.join(base, 'nothing-here'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
