import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { isGitignored, parseGitignore } from '../../../src/node/workspace-tools/gitignore-rules.js';
import { compileGlob, splitGlobBase } from '../../../src/permissions/compile-glob.js';
import type { Tool } from '../../../src/tools/types.js';
import { callTool, makeTempDir, toolNamed } from './helpers.js';

let work: string;
let glob: Tool;
let grep: Tool;

async function put(relative: string, content: string, mtimeSeconds?: number) {
  const full = path.join(work, relative);
  await fs.mkdir(path.dirname(full), { recursive: true });
  await fs.writeFile(full, content);
  if (mtimeSeconds !== undefined) await fs.utimes(full, mtimeSeconds, mtimeSeconds);
}

beforeEach(async () => {
  work = await makeTempDir('ws-search-');
  await put('.gitignore', 'dist/\n*.log\n!keep.log\n/root-only.txt\n');
  await put('src/index.ts', 'export const answer = 42;\n// TODO: more\n', 1_000);
  await put('src/util/strings.ts', 'export function upper(s: string) {\n  return s.toUpperCase();\n}\n// todo later\n', 3_000);
  await put('src/app.tsx', 'const App = () => null; // TODO\n', 2_000);
  await put('src/.hidden.ts', 'const hidden = 1;\n', 500);
  await put('src/root-only.txt', 'not ignored: the rule is anchored to the root\n', 400);
  await put('root-only.txt', 'TODO ignored\n');
  await put('dist/bundle.js', 'TODO built\n');
  await put('debug.log', 'TODO log\n');
  await put('keep.log', 'TODO kept\n', 100);
  await put('node_modules/pkg/index.js', 'TODO dependency\n');
  await put('.git/HEAD', 'TODO git\n');
  await put('docs/.gitignore', 'drafts\n');
  await put('docs/drafts/x.md', 'TODO draft\n');
  await put('docs/guide.md', 'Guide\nline two\nTODO guide\nline four\nline five\nline six\nTODO again\n', 50);
  await fs.writeFile(path.join(work, 'image.bin'), Buffer.from([0, 1, 2, 84, 79, 68, 79]));
  const tools = workspaceTools({ cwd: work });
  glob = toolNamed(tools, 'Glob');
  grep = toolNamed(tools, 'Grep');
});

afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

describe('Glob', () => {
  it('is read-only and concurrency-safe', () => {
    expect(glob).toMatchObject({ kind: 'read', readOnly: true, concurrencySafe: true, ruleTarget: { field: 'path', kind: 'path' } });
  });

  it('lists matches newest first, skipping node_modules, .git and ignored files', async () => {
    expect((await callTool(glob, { pattern: '**/*.ts' })).text).toBe('src/util/strings.ts\nsrc/index.ts\nsrc/.hidden.ts');
    expect((await callTool(glob, { pattern: 'src/*.{ts,tsx}' })).text).toBe('src/app.tsx\nsrc/index.ts\nsrc/.hidden.ts');
    expect((await callTool(glob, { pattern: '**/*.log' })).text).toBe('keep.log');
    expect((await callTool(glob, { pattern: '**/*.js' })).text).toBe('No files found');
    expect((await callTool(glob, { pattern: '**/*.md' })).text).toBe('docs/guide.md');
    expect((await callTool(glob, { pattern: '**/root-only.txt' })).text).toBe('src/root-only.txt');
  });

  it('searches below path, and an explicitly named ignored directory', async () => {
    expect((await callTool(glob, { pattern: '*.ts', path: 'src/util' })).text).toBe('src/util/strings.ts');
    expect((await callTool(glob, { pattern: '*.js', path: 'dist' })).text).toBe('dist/bundle.js');
    expect((await callTool(glob, { pattern: '*', path: 'missing' })).text).toBe('Path does not exist: missing');
  });

  it('an already aborted call answers as Grep does ("The search was interrupted.", an error result), not by throwing AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    const globbed = await callTool(glob, { pattern: '**/*.ts' }, { signal: controller.signal });
    const grepped = await callTool(grep, { pattern: 'TODO' }, { signal: controller.signal });
    expect(globbed).toMatchObject({ isError: true, text: 'The search was interrupted.' });
    expect(grepped).toMatchObject({ isError: globbed.isError, text: globbed.text });
  });

  it('caps the number of results', async () => {
    await Promise.all(Array.from({ length: 120 }, (_, index) => put(`many/f${index}.txt`, '')));
    const result = await callTool(glob, { pattern: 'many/*.txt' });
    expect(result.text.split('\n').filter((line) => line.startsWith('many/'))).toHaveLength(100);
    expect(result.text).toMatch(/Showing the 100 most recently modified of 120 matches/);
  });
});

describe('Grep', () => {
  it('lists matching files by default, newest first', async () => {
    expect((await callTool(grep, { pattern: 'TODO' })).text).toBe('Found 4 files\nsrc/app.tsx\nsrc/index.ts\nkeep.log\ndocs/guide.md');
    expect((await callTool(grep, { pattern: 'todo', '-i': true, glob: '*.ts' })).text).toBe('Found 2 files\nsrc/util/strings.ts\nsrc/index.ts');
    expect((await callTool(grep, { pattern: 'TODO', glob: 'src/**/*.tsx' })).text).toBe('Found 1 file\nsrc/app.tsx');
  });

  it('shows content with line numbers and context', async () => {
    expect((await callTool(grep, { pattern: 'TODO', path: 'src', output_mode: 'content' })).text).toBe('src/app.tsx:1:const App = () => null; // TODO\nsrc/index.ts:2:// TODO: more');
    expect((await callTool(grep, { pattern: 'TODO', path: 'docs/guide.md', output_mode: 'content', '-n': false })).text).toBe('docs/guide.md:TODO guide\ndocs/guide.md:TODO again');
    const context = await callTool(grep, { pattern: 'TODO', path: 'docs', output_mode: 'content', '-B': 1, '-A': 1 });
    expect(context.text).toBe(['docs/guide.md-2-line two', 'docs/guide.md:3:TODO guide', 'docs/guide.md-4-line four', '--', 'docs/guide.md-6-line six', 'docs/guide.md:7:TODO again'].join('\n'));
    expect((await callTool(grep, { pattern: 'TODO', path: 'docs', output_mode: 'content', '-C': 5 })).text.split('\n')).toHaveLength(7);
  });

  it('a file larger than 64 KiB (read as its lines) shows the same lines and numbers as a small one', async () => {
    // Lines of varied lengths, CRLF and lone CR, multi-byte characters: the 64 KiB pieces end
    // inside lines and characters, and the matches are spread over them.
    const lines = Array.from({ length: 6000 }, (_, index) => (index % 997 === 0 ? `needle ${index} é😀` : `line ${index} ${'x'.repeat(index % 37)}${index % 5 === 0 ? '\r' : ''}é`));
    const text = lines.map((line, index) => (index % 3 === 0 ? `${line}\r\n` : `${line}\n`)).join('');
    expect(Buffer.byteLength(text)).toBeGreaterThan(128 * 1024);
    await put('big/large.txt', text);
    await put('big/small.txt', lines.slice(0, 1000).join('\n'));
    const expected = (name: string, count: number) =>
      lines
        .slice(0, count)
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => line.startsWith('needle'))
        .map(({ line, index }) => `big/${name}:${index + 1}:${line}`);
    const large = await callTool(grep, { pattern: '^needle', path: 'big/large.txt', output_mode: 'content' });
    expect(large.text.split('\n')).toEqual(expected('large.txt', 6000));
    const small = await callTool(grep, { pattern: '^needle', path: 'big/small.txt', output_mode: 'content' });
    expect(small.text.split('\n')).toEqual(expected('small.txt', 1000));
    // A lone \r is not a line break: the line that holds one is matched whole.
    const withReturn = await callTool(grep, { pattern: '^line 5 x{5}\\ré$', path: 'big/large.txt', output_mode: 'content' });
    expect(withReturn.text).toBe('big/large.txt:6:line 5 xxxxx\ré');
  });

  it('counts, limits and reports no match', async () => {
    expect((await callTool(grep, { pattern: 'TODO', path: 'docs', output_mode: 'count' })).text).toBe('Found 2 matching lines in 1 file\ndocs/guide.md:2');
    const limited = await callTool(grep, { pattern: 'TODO', head_limit: 2 });
    expect(limited.text).toBe('Found 4 files\nsrc/app.tsx\nsrc/index.ts\n\n[Showing the first 2 of 4 entries.]');
    expect((await callTool(grep, { pattern: 'nothing-like-this' })).text).toBe('No files found');
    expect((await callTool(grep, { pattern: 'nothing-like-this', output_mode: 'content' })).text).toBe('No matches found');
  });

  it('rejects an invalid regular expression at validation', async () => {
    expect(await callTool(grep, { pattern: '(unclosed' })).toMatchObject({ stage: 'validate', text: expect.stringMatching(/^Invalid regular expression/) });
  });

  it('bounds its output', async () => {
    const tools = workspaceTools({ cwd: work, maxOutputChars: 200 });
    await put('huge.txt', Array.from({ length: 500 }, (_, index) => `match ${index}`).join('\n'));
    const result = await callTool(toolNamed(tools, 'Grep'), { pattern: 'match', path: 'huge.txt', output_mode: 'content' });
    expect(result.text.length).toBeLessThan(400);
    expect(result.text).toMatch(/\[Output truncated: \d+ more characters\. Narrow the search with path, glob or head_limit\.\]$/);
  });
});

describe('glob and .gitignore matching', () => {
  it('compiles globs', () => {
    const cases: Array<[string, string, boolean]> = [
      ['*.ts', 'a.ts', true],
      ['*.ts', 'src/a.ts', false],
      ['**/*.ts', 'a.ts', true],
      ['**/*.ts', 'src/deep/a.ts', true],
      ['src/**', 'src/a/b', true],
      ['src/**/test/*.ts', 'src/test/a.ts', true],
      ['src/**/test/*.ts', 'src/x/y/test/a.ts', true],
      ['?.md', 'a.md', true],
      ['?.md', 'ab.md', false],
      ['[abc].txt', 'b.txt', true],
      ['[!abc].txt', 'b.txt', false],
      ['*.{ts,tsx}', 'a.tsx', true],
      ['{src,lib}/*.js', 'lib/x.js', true],
      ['a+b(1).txt', 'a+b(1).txt', true],
      ['{unbalanced', '{unbalanced', true],
    ];
    for (const [pattern, candidate, expected] of cases) expect(compileGlob(pattern).test(candidate), `${pattern} ~ ${candidate}`).toBe(expected);
  });

  it('splits the literal base off a glob', () => {
    expect(splitGlobBase('/etc/**/*.conf')).toEqual({ base: '/etc', pattern: '**/*.conf' });
    expect(splitGlobBase('../lib/*.ts')).toEqual({ base: '../lib', pattern: '*.ts' });
    expect(splitGlobBase('**/*.ts')).toEqual({ base: '.', pattern: '**/*.ts' });
    expect(splitGlobBase('/*')).toEqual({ base: '/', pattern: '*' });
    expect(splitGlobBase('src/index.ts')).toEqual({ base: 'src', pattern: 'index.ts' });
  });

  it('follows .gitignore semantics', () => {
    const rules = [parseGitignore('/r', '# comment\n*.log\n!keep.log\nbuild/\n/top.txt\ndocs/*.tmp\n**/cache\nspaced\\ \n')];
    const ignored = (relative: string, isDirectory = false) => isGitignored(rules, `/r/${relative}`, isDirectory);
    expect(ignored('a.log')).toBe(true);
    expect(ignored('deep/a.log')).toBe(true);
    expect(ignored('keep.log')).toBe(false);
    expect(ignored('build', true)).toBe(true);
    expect(ignored('build')).toBe(false);
    expect(ignored('top.txt')).toBe(true);
    expect(ignored('sub/top.txt')).toBe(false);
    expect(ignored('docs/a.tmp')).toBe(true);
    expect(ignored('x/docs/a.tmp')).toBe(false);
    expect(ignored('a/b/cache', true)).toBe(true);
    expect(ignored('spaced ')).toBe(true);
    expect(isGitignored(rules, '/elsewhere/a.log', false)).toBe(false);
  });
});

describe('Grep, early stop', () => {
  it('stops walking once head_limit lines are exceeded in content mode, and says so', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, index) => put(`many/f${String(index).padStart(2, '0')}.txt`, 'hit\nhit\n')));
    const result = await callTool(grep, { pattern: 'hit', path: 'many', output_mode: 'content', head_limit: 3 });
    expect(result.text).toBe('many/f00.txt:1:hit\nmany/f00.txt:2:hit\nmany/f01.txt:1:hit\n\n[Showing the first 3 of more than 3 lines.]');
  });
});
