import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { expandBraces, globToRegExp } from '../../src/permissions/glob-to-reg-exp.js';

const cases: Array<[glob: string, matches: string[], misses: string[]]> = [
  ['src/*.ts', ['src/a.ts', 'src/.hidden.ts'], ['src/a/b.ts', 'a.ts', 'src/a.tsx', 'xsrc/a.ts']],
  ['src/**', ['src/a.ts', 'src/a/b/c.ts'], ['src', 'lib/a.ts', 'srcx/a.ts']],
  ['**/*.md', ['a.md', 'docs/a.md', 'docs/x/y/a.md'], ['a.mdx', 'docs/a.txt']],
  ['docs/**/index.md', ['docs/index.md', 'docs/a/index.md', 'docs/a/b/index.md'], ['docs/aindex.md', 'index.md']],
  ['**', ['a', 'a/b/c', '.env'], []],
  ['file?.txt', ['file1.txt', 'fileA.txt'], ['file.txt', 'file12.txt', 'file/.txt']],
  ['{src,test}/**/*.{ts,tsx}', ['src/a.ts', 'test/x/y.tsx'], ['lib/a.ts', 'src/a.js']],
  ['docs/{guide,api/{v1,v2}}/*.md', ['docs/guide/a.md', 'docs/api/v1/a.md', 'docs/api/v2/b.md'], ['docs/api/a.md', 'docs/api/v3/a.md']],
  ['a+b(c)[d]^$.txt', ['a+b(c)[d]^$.txt'], ['aab(c)[d]^$.txt', 'a+bc[d]^$.txt']],
  ['{lonely}/x', ['{lonely}/x'], ['lonely/x']],
  ['{open/x', ['{open/x'], ['open/x']],
  ['a**b', ['ab', 'axxb'], ['a/b']],
  ['/etc/**', ['/etc/passwd', '/etc/a/b'], ['etc/passwd', '/etcx/a']],
];

describe('globToRegExp', () => {
  it.each(cases)('%s', (glob, matches, misses) => {
    const regExp = globToRegExp(glob);
    for (const path of matches) expect(regExp.test(path), `${glob} should match ${path}`).toBe(true);
    for (const path of misses) expect(regExp.test(path), `${glob} should not match ${path}`).toBe(false);
  });

  it('expands nested braces in order', () => {
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('{a,b}{1,2}')).toEqual(['a1', 'a2', 'b1', 'b2']);
  });

  it('refuses globs that explode', () => {
    expect(() => globToRegExp('{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b}')).toThrow(ConfigurationError);
  });
});
