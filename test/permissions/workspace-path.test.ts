import { describe, expect, it } from 'vitest';
import { normalizePath, toWorkspacePath } from '../../src/permissions/workspace-path.js';

describe('normalizePath', () => {
  it.each([
    ['./src/a.ts', 'src/a.ts'],
    ['src//x/../a.ts', 'src/a.ts'],
    ['../a', '../a'],
    ['a/../../b', '../b'],
    ['/a/../../b', '/b'],
    ['C:\\work\\x\\.\\y', 'C:/work/x/y'],
    ['', '.'],
    ['src/', 'src'],
    ['/', '/'],
    ['~/x/../.ssh', '~/.ssh'],
    ['~/../x', '~/../x'],
    ['~', '~'],
    ['~/', '~'],
    ['~alice/./a', '~alice/a'],
    ['~$lock.docx', '~$lock.docx'],
  ])('%s → %s', (path, expected) => {
    expect(normalizePath(path)).toBe(expected);
  });
});

describe('toWorkspacePath', () => {
  it('makes absolute paths inside cwd relative', () => {
    expect(toWorkspacePath('/work/p/src/a.ts', '/work/p')).toEqual({ relative: 'src/a.ts', insideWorkspace: true, absolute: '/work/p/src/a.ts', home: false });
    expect(toWorkspacePath('/work/p/', '/work/p/')).toMatchObject({ relative: '.', insideWorkspace: true });
  });
  it('keeps outside paths absolute', () => {
    expect(toWorkspacePath('/work/px/a', '/work/p')).toEqual({ relative: '/work/px/a', insideWorkspace: false, absolute: '/work/px/a', home: false });
    expect(toWorkspacePath('/work/p/../q/a', '/work/p')).toMatchObject({ relative: '/work/q/a', insideWorkspace: false });
  });
  it('resolves relative paths against cwd', () => {
    expect(toWorkspacePath('src/../../x', '/work/p')).toEqual({ relative: '../x', insideWorkspace: false, absolute: '/work/x', home: false });
  });
  it('takes a path from home (~) as outside the workspace, wherever home is', () => {
    expect(toWorkspacePath('~/.ssh/id_rsa', '/work/p')).toEqual({ relative: '~/.ssh/id_rsa', insideWorkspace: false, absolute: undefined, home: true });
    expect(toWorkspacePath('~/../p/x', '/work/p')).toMatchObject({ relative: '~/../p/x', insideWorkspace: false, home: true });
    expect(toWorkspacePath('~', undefined)).toMatchObject({ insideWorkspace: false, home: true });
    // Not a home directory: a file whose name starts with ~.
    expect(toWorkspacePath('~$lock.docx', '/work/p')).toMatchObject({ relative: '~$lock.docx', insideWorkspace: true, home: false });
    expect(toWorkspacePath('~notes.md', '/work/p')).toMatchObject({ relative: '~notes.md', insideWorkspace: true, home: false });
    expect(toWorkspacePath('~alice/x', '/work/p')).toMatchObject({ insideWorkspace: false, home: true });
  });
  it('takes a path with a backslash as inside only when it is inside read either way (\\ a separator, or a character of a name)', () => {
    expect(toWorkspacePath('a\\b/../../x', '/work/p')).toMatchObject({ relative: 'x', insideWorkspace: false });
    expect(toWorkspacePath('/work/p/a\\b/../../x', '/work/p')).toMatchObject({ insideWorkspace: false });
    expect(toWorkspacePath('src\\a.ts', '/work/p')).toMatchObject({ relative: 'src/a.ts', insideWorkspace: true });
    expect(toWorkspacePath('a\\..\\..\\x', '/work/p')).toMatchObject({ insideWorkspace: false });
  });
  it('uses the path as given without cwd', () => {
    expect(toWorkspacePath('src/a.ts', undefined)).toEqual({ relative: 'src/a.ts', insideWorkspace: true, absolute: undefined, home: false });
    expect(toWorkspacePath('/abs/a.ts', undefined)).toEqual({ relative: '/abs/a.ts', insideWorkspace: false, absolute: '/abs/a.ts', home: false });
  });
});
