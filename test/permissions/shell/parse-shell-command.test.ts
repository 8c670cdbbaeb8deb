import { describe, expect, it } from 'vitest';
import { parseShellCommand } from '../../../src/permissions/shell/index.js';

import type { ShellSimpleCommand, ShellWord } from '../../../src/permissions/shell/index.js';

const words = (command: string) => parseShellCommand(command).commands.map((simple: ShellSimpleCommand) => simple.words.map((word: ShellWord) => word.value));

describe('parseShellCommand', () => {
  it('splits commands on operators and removes quotes', () => {
    expect(words(`ls -la | grep "a b" && echo 'c;d' ; pwd`)).toEqual([['ls', '-la'], ['grep', 'a b'], ['echo', 'c;d'], ['pwd']]);
    const [first, second] = parseShellCommand('a && b || c | d |& e ; f').tree;
    expect(first!.andOr.operators).toEqual(['&&', '||']);
    expect(first!.andOr.pipelines.map((pipeline) => pipeline.commands.length)).toEqual([1, 1, 3]);
    expect(second!.andOr.pipelines[0]!.commands).toHaveLength(1);
  });

  it('handles escapes, adjacent quotes and line continuations', () => {
    expect(words(`echo a\\;b "x\\"y" 'p'"q"r \\$HOME`)).toEqual([['echo', 'a;b', 'x"y', 'pqr', '$HOME']]);
    expect(words('echo one \\\n two')).toEqual([['echo', 'one', 'two']]);
    expect(parseShellCommand('echo \\$HOME').commands[0]!.words[1]!.hasExpansion).toBe(false);
  });

  it('records expansions, substitutions and globs', () => {
    const parsed = parseShellCommand('echo $(rm -rf x) "`touch y`" $HOME *.ts \'*.js\'');
    const flags = parsed.commands[0]!.words.map((word) => [word.hasExpansion, word.hasGlob]);
    expect(flags).toEqual([[false, false], [true, false], [true, false], [true, false], [false, true], [false, false]]);
    expect(parsed.substitutions).toEqual(['rm -rf x', 'touch y']);
  });

  it('parses redirections with descriptors', () => {
    const [simple] = parseShellCommand('grep x file 2>/dev/null >out.txt 2>&1 <in &>>log').commands;
    expect(simple!.redirects.map((r) => [r.fd, r.operator, r.target.value])).toEqual([
      ['2', '>', '/dev/null'],
      [undefined, '>', 'out.txt'],
      ['2', '>&', '1'],
      [undefined, '<', 'in'],
      [undefined, '&>>', 'log'],
    ]);
    expect(simple!.words.map((word) => word.value)).toEqual(['grep', 'x', 'file']);
  });

  it('splits words at operators without spaces', () => {
    expect(words('ls>x;pwd')).toEqual([['ls'], ['pwd']]);
    expect(parseShellCommand('ls>x').commands[0]!.redirects[0]!.target.value).toBe('x');
  });

  it('skips comments and here-document bodies', () => {
    expect(words('ls # rm -rf /')).toEqual([['ls']]);
    expect(words("cat <<'EOF'\nrm -rf /\nEOF\npwd")).toEqual([['cat'], ['pwd']]);
  });

  it('reports unsupported constructs instead of guessing', () => {
    expect(parseShellCommand('(ls)').tree[0]!.andOr.pipelines[0]!.commands[0]!.type).toBe('subshell');
    expect(parseShellCommand('f() { ls; }').unsupported).toContain('function definition "f"');
    expect(parseShellCommand('sleep 1 &').unsupported).toContain('background job "&"');
    const processSubstitution = parseShellCommand('diff <(ls a) <(ls b)');
    expect(processSubstitution.unsupported).toContain('process substitution');
    expect(processSubstitution.substitutions).toEqual(['ls a', 'ls b']);
  });

  it('fails on unterminated quotes and dangling operators', () => {
    expect(parseShellCommand('echo "abc').error).toMatch(/double quote/);
    expect(parseShellCommand("echo 'abc").error).toMatch(/single quote/);
    expect(parseShellCommand('ls &&').error).toMatch(/ends with/);
    expect(parseShellCommand('ls |').error).toMatch(/ends with/);
    expect(parseShellCommand('&& ls').error).toBeDefined();
    expect(parseShellCommand('echo $(ls').error).toBeDefined();
    expect(parseShellCommand('cat > ').error).toMatch(/no target/);
  });

  it('keeps `case` patterns inside $(...), here-document bodies and unquoted tilde prefixes', () => {
    expect(parseShellCommand('echo $(case x in x) rm -rf y ;; esac) z').substitutions).toEqual(['case x in x) rm -rf y ;; esac']);
    expect(parseShellCommand('echo $(echo a # ) comment\n) b').substitutions).toEqual(['echo a # ) comment\n']);
    expect(parseShellCommand('sh <<EOF\nrm x\nls\nEOF').commands[0]!.redirects[0]!.body).toBe('rm x\nls');
    const [tilde, quoted] = parseShellCommand("ls ~root '~x'").commands[0]!.words.slice(1);
    expect([tilde!.tilde, quoted!.tilde]).toEqual([true, undefined]);
  });
});
