import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path).split('\\').join('/')] : [];
  });
}

describe('the test suite configuration', () => {
  it('runs every file that replaces a module (vi.mock) in the isolated project, where its mock cannot reach other files', () => {
    const projects = (config.test?.projects ?? []) as Array<{ test: { name: string; include: string[]; exclude?: string[]; isolate: boolean } }>;
    const isolated = projects.find((project) => project.test.name === 'isolated')!;
    const shared = projects.find((project) => project.test.name === 'shared')!;
    expect(isolated.test.isolate).toBe(true);
    expect(shared.test.isolate).toBe(false);
    expect(shared.test.exclude).toEqual(isolated.test.include);
    // The fixtures notice is one line: set on one project only (a root setup runs once per project too).
    expect(config.test?.globalSetup).toBeUndefined();
    expect((shared.test as { globalSetup?: string[] }).globalSetup).toEqual(['test/fixtures-notice.ts']);
    expect((isolated.test as { globalSetup?: string[] }).globalSetup).toBeUndefined();
    const mocking = testFiles(join(root, 'test')).filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(root, file), 'utf8')) && file !== 'test/suite-config.test.ts');
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking.filter((file) => !isolated.test.include.includes(file))).toEqual([]);
  });
});
