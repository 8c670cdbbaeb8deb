import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { compileGlob, expandBraces } from '../../src/permissions/compile-glob.js';

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

describe('compileGlob', () => {
  it.each(cases)('%s', (glob, matches, misses) => {
    const matcher = compileGlob(glob);
    for (const path of matches) expect(matcher.test(path), `${glob} should match ${path}`).toBe(true);
    for (const path of misses) expect(matcher.test(path), `${glob} should not match ${path}`).toBe(false);
  });

  it('expands nested braces in order', () => {
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('{a,b}{1,2}')).toEqual(['a1', 'a2', 'b1', 'b2']);
  });

  it('refuses globs that explode', () => {
    expect(() => compileGlob('{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b}')).toThrow(ConfigurationError);
  });
});

// One glob matcher for rules, the Glob and Grep tools, .gitignore and the Bash path analysis (issue 18).
describe('compileGlob: brackets, negation, escapes, ** and braces', () => {
  const table: Array<[glob: string, matches: string[], misses: string[]]> = [
    ['[abc].txt', ['a.txt', 'c.txt', '[abc].txt'], ['d.txt', 'ab.txt']],
    ['[!abc].txt', ['d.txt', '[!abc].txt'], ['a.txt', '/.txt']],
    ['[^abc].txt', ['d.txt'], ['b.txt']],
    ['[a-c]x', ['bx', '[a-c]x'], ['dx', '-x']],
    ['[]]x', [']x'], ['ax']],
    ['[!.]x', ['ax', '[!.]x'], ['.x', '/x']],
    ['[z-a]', ['[z-a]'], ['z', 'a']],
    ['[unclosed', ['[unclosed'], ['u']],
    ['src/[id]/page.tsx', ['src/[id]/page.tsx', 'src/i/page.tsx'], ['src/x/page.tsx', 'src/id/page.tsx']],
    ['\\*.md', ['*.md'], ['a.md']],
    ['a\\?', ['a?'], ['ab']],
    ['\\[x]', ['[x]'], ['x']],
    ['spaced\\ ', ['spaced '], ['spaced']],
    ['\\{a,b}', ['{a,b}'], ['a', 'b']],
    ['**/**/x', ['x', 'a/x', 'a/b/c/x'], ['ax']],
    ['a/**/b/**', ['a/b/c', 'a/x/b/y/z'], ['a/b', 'b/c']],
    ['**/.env', ['.env', 'a/.env', 'a/b/.env'], ['.envrc', 'a/x.env']],
    ['{a,b}{1,2}', ['a1', 'b2'], ['ab', '12']],
    ['x{,.bak}', ['x', 'x.bak'], ['x.']],
    ['file[0-9][0-9].log', ['file42.log'], ['file4.log', 'fileab.log']],
    ['new\nline', ['new\nline'], ['newline']],
  ];
  it.each(table)('%j', (glob, matches, misses) => {
    const matcher = compileGlob(glob);
    for (const path of matches) expect(matcher.test(path), `${glob} should match ${JSON.stringify(path)}`).toBe(true);
    for (const path of misses) expect(matcher.test(path), `${glob} should not match ${JSON.stringify(path)}`).toBe(false);
  });

  it('without braces, { and } are literal (gitignore, shell words already expanded)', () => {
    expect(compileGlob('{a,b}', { braces: false }).test('{a,b}')).toBe(true);
    expect(compileGlob('{a,b}', { braces: false }).test('a')).toBe(false);
  });

  it('property: an escaped literal matches exactly itself', () => {
    const escapeGlob = (text: string) => text.replace(/[\\*?[\]{}]/g, '\\$&');
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }).filter((text) => !text.includes('/')), fc.string({ maxLength: 20 }), (text, other) => {
        const matcher = compileGlob(escapeGlob(text));
        return matcher.test(text) && (other === text || !matcher.test(other));
      }),
    );
  });

  it('property: * never crosses a /, ** does', () => {
    const segment = fc.stringMatching(/^[a-z.]{1,6}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 2, maxLength: 5 }), (segments) => {
        const path = segments.join('/');
        return !compileGlob('*').test(path) && compileGlob('**').test(path) && compileGlob(`${segments[0]}/**`).test(path);
      }),
    );
  });

  it('property: a bracket expression always matches its own text, so no deny rule is slipped past by a literal name', () => {
    const name = fc.stringMatching(/^[a-z!^\-\]]{1,5}$/);
    fc.assert(fc.property(name, (inner) => compileGlob(`src/[${inner}]/**`).test(`src/[${inner}]/x`)));
  });

  // No time asserted: a backtracking matcher takes far longer than the test's timeout on these.
  it('stays linear on hostile globs and paths', () => {
    const matcher = compileGlob(`${'*a'.repeat(30)}/**/${'**/'.repeat(50)}x`);
    expect(matcher.test(`${'a'.repeat(5000)}/${'b/'.repeat(2000)}y`)).toBe(false);
  }, 30_000);
});
