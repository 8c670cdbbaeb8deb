import { describe, expect, it } from 'vitest';
import { splitShellCommand } from '../../src/permissions/split-shell-command.js';

const texts = (command: string) => splitShellCommand(command).map((segment) => segment.text);
const opaque = (command: string) => splitShellCommand(command).map((segment) => segment.opaque);

describe('splitShellCommand', () => {
  it('splits at control operators', () => {
    expect(texts('npm test && rm -rf dist')).toEqual(['npm test', 'rm -rf dist']);
    expect(texts('a || b; c | d |& e & f\ng')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('keeps quoted operators and escapes', () => {
    expect(texts(`echo "a && b" 'c; d' e\\;f`)).toEqual([`echo "a && b" 'c; d' e\\;f`]);
  });

  it('collapses whitespace', () => {
    expect(texts('  npm    test\t-- --watch ')).toEqual(['npm test -- --watch']);
  });

  it('marks substitutions and redirections as opaque', () => {
    expect(opaque('echo $(whoami)')).toEqual([true]);
    expect(opaque('echo `whoami`')).toEqual([true]);
    expect(opaque('echo "$(whoami)"')).toEqual([true]);
    expect(opaque("echo '$(whoami)'")).toEqual([false]);
    expect(opaque('echo hi > out.txt')).toEqual([true]);
    expect(opaque('cat < in.txt')).toEqual([true]);
    expect(opaque('diff <(a) b')).toEqual([true]);
    expect(opaque('npm test &> log')).toEqual([true]);
    expect(opaque('echo "a > b"')).toEqual([false]);
  });

  it('treats descriptor duplication as harmless and not as an operator', () => {
    expect(splitShellCommand('npm test 2>&1 | tee log')).toEqual([
      { text: 'npm test 2>&1', opaque: false },
      { text: 'tee log', opaque: false },
    ]);
    expect(splitShellCommand('echo x >&2')).toEqual([{ text: 'echo x >&2', opaque: false }]);
  });

  it('ignores empty commands', () => {
    expect(texts('')).toEqual([]);
    expect(texts(' ; ; ')).toEqual([]);
  });
});
