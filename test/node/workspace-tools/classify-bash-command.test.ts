import { describe, expect, it } from 'vitest';
import { classifyBashCommand } from '../../../src/node/workspace-tools/classify-bash-command.js';

const readOnly = [
  'ls',
  'ls -la src',
  'cat README.md | head -20',
  'grep -rn "TODO" src | wc -l',
  'rg --files -g "*.ts"',
  'find . -name "*.ts" -type f',
  'git status',
  'git --no-pager log --oneline -5',
  'git diff HEAD~1 -- src/index.ts',
  'git show HEAD:package.json',
  'git branch',
  'git branch -a -v',
  'git branch --list "feat/*"',
  'git rev-parse --show-toplevel',
  'git describe',
  'git describe --tags --always --abbrev=7',
  'git stash list',
  'git stash show -p',
  'git log --format=%H%n%s -3',
  'git log --pretty=oneline',
  'git log --pretty=format:%h',
  'pwd && ls',
  'echo "a > b; rm -rf x"',
  'echo a\\;touch b',
  'ls *.ts',
  'ls 2>/dev/null || echo none',
  'grep foo file 2>&1 | head',
  'cat < input.txt',
  'sort data.txt | uniq -c',
  'stat -c %s file',
  'wc -l src/*.ts',
  'du -sh .',
  'cd src && ls',
  'test -f package.json && echo yes',
  '[ -d src ]',
  'date +%Y-%m-%d',
  'command -v node',
  '',
  '   # just a comment',
];

const notReadOnly: Array<[string, RegExp]> = [
  ['rm file', /rm is not on the read-only list/],
  ['touch x', /not on the read-only list/],
  ['ls > files.txt', /redirection/],
  ['ls >> files.txt', /redirection/],
  ['cat a >| b', /redirection/],
  ['cat a <> b', /redirection/],
  ['ls &> out', /redirection/],
  ['ls 2> err.txt', /redirection/],
  ['cat <<EOF\nhi\nEOF', /here-documents/],
  ['cat <<< hi', /here-documents/],
  ['ls | tee out', /tee is not/],
  ['ls && rm x', /rm is not/],
  ['ls; touch y', /touch is not/],
  ['false || mkdir d', /mkdir is not/],
  ['echo $(touch x)', /expanded or substituted/],
  ['echo `touch x`', /expanded or substituted/],
  ['echo "$(touch x)"', /expanded or substituted/],
  ['echo $HOME', /expanded/],
  ['cat <(touch x)', /process substitution/],
  ['FOO=1 ls', /variable assignment/],
  ['X=1', /variable assignment/],
  ['xargs rm', /xargs is not/],
  ['sh -c "touch x"', /sh is not/],
  ['bash -c ls', /bash is not/],
  ['eval ls', /eval is not/],
  ['find . -delete', /-delete/],
  ['find . -name x -exec rm {} \\;', /-exec/],
  ['find . -execdir touch {} +', /-execdir/],
  ['find . -fprint out', /-fprint/],
  ['find . -name *.ts', /unquoted glob/],
  ['sort -o out in', /sort -o/],
  ['sort -ro out in', /sort -ro/],
  ['sort --out=out in', /--out=out/],
  ['sort -T . in', /-T/],
  ['uniq in out', /uniq with two/],
  ['rg --pre cat x', /--pre/],
  ['git commit -m x', /git commit/],
  ['git push', /git push/],
  ['git -c core.pager=sh log', /git option -c/],
  ['git diff --output=patch.txt', /writes a file/],
  ['git log --out=x', /writes a file/],
  ['git branch new-branch', /git branch new-branch/],
  ['git branch -D main', /git branch -D/],
  ['git remote add origin x', /git remote/],
  ['git checkout .', /git checkout/],
  ['./script.sh', /by path/],
  ['/bin/rm x', /by path/],
  ['(ls)', /subshell/],
  ['{ ls; }', /group/],
  ['sleep 5 &', /background/],
  ['date -s "2020-01-01"', /date -s/],
  ['file -C -m magic', /file -C/],
  ['tree -R -H .', /tree -R/],
  ['git describe --dirty', /git describe --dirty refreshes and writes .git\/index/],
  ['git describe --tags --dirty=-modified', /git describe --dirty=-modified/],
  ['git describe --broken', /git describe --broken/],
  ['git describe --di', /git describe --di /],
  ['git log --show-signature', /checks signatures with gpg/],
  ['git show -s --format=%G?', /checks signatures/],
  ['git log --pretty=format:%GS', /checks signatures/],
  ['git log --pretty=mine', /repository's configuration may define/],
  ['git stash', /git stash changes/],
  ['git stash pop', /git stash pop changes/],
  ['git stash drop stash@0', /git stash drop/],
  ['git stash list --output=x', /writes a file/],
  ['git fetch --dry-run', /git fetch is not a read-only/],
  ['env rm x', /environment/],
  ['env', /environment/],
  ['command rm x', /command runs/],
  ['echo "unterminated', /could not be parsed/],
  ['ls\0', /NUL/],
  ['npm test', /npm is not/],
  ['cat < /dev/tcp/example.com/80', /network/],
];

describe('classifyBashCommand', () => {
  it.each(readOnly)('read-only: %j', (command) => {
    const verdict = classifyBashCommand(command);
    expect(verdict, verdict.reason).toMatchObject({ readOnly: true });
  });

  it.each(notReadOnly)('not read-only: %j', (command, reason) => {
    const verdict = classifyBashCommand(command);
    expect(verdict.readOnly).toBe(false);
    expect(verdict.reason).toMatch(reason);
  });

  it('names the commands it found read-only', () => {
    expect(classifyBashCommand('git diff && ls | wc -l').reason).toBe('read-only: git, ls, wc');
  });

  it('a process environment file is not read-only however its path is spelled', () => {
    for (const command of ['cat /proc/self/environ', 'cat /./proc/1/environ', 'cat /proc//self/./environ', 'cat /proc/self/enviro?', 'cat /proc/*/env*']) {
      expect(classifyBashCommand(command).readOnly, command).toBe(false);
    }
    expect(classifyBashCommand('cat /proc/cpuinfo').readOnly).toBe(true);
  });
});
