import { statSync } from 'node:fs';
import path from 'node:path';
import { parseShellCommand, type ShellCommandNode, type ShellList, type ShellRedirect, type ShellSimpleCommand, type ShellWord } from '../../permissions/shell/index.js';
import type { WriteTargets } from '../../tools/types.js';
import { expandBraces } from './expand-shell-glob.js';
import { ruleAliases } from './rule-aliases.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';
import { ownValue } from '../../model/own-value.js';
import { inlineProgramProblem } from './inline-program-problem.js';
import { interpreterProgram } from './interpreter-code.js';

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const DESCRIPTOR = /^(\d+|-)$/;
/** Redirections that open their target for writing (`>&` only when the target is no descriptor). */
const WRITING_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
/** Shells: with `-c` they run a script given on the command line, without one what they read. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'yash', 'posh', 'rbash']);
/** Commands that run the command named by a later word (`sudo rm x`, `timeout 5 rm x`). */
const WRAPPERS = new Set([
  'sudo', 'doas', 'pkexec', 'su', 'runuser', 'sg', 'env', 'nice', 'nohup', 'time', 'command', 'builtin', 'exec', 'timeout', 'stdbuf',
  'ionice', 'taskset', 'chrt', 'numactl', 'setsid', 'unshare', 'nsenter', 'chroot', 'flock', 'strace', 'ltrace', 'watch', 'script',
  'unbuffer', 'fakeroot', 'firejail', 'caffeinate', 'catchsegv',
]);
/** Commands that run a script file in the current shell. */
const SOURCES = new Set(['source', '.']);
/** Commands that take the names of the files they pass on from their input. */
const FROM_INPUT = new Set(['xargs', 'parallel']);
const MAX_BRACE_WORDS = 1000;

/** A command's operands (words that are no option) and the values of the options it names. */
function operands(args: readonly ShellWord[], valued: readonly string[] = []): { operands: ShellWord[]; values: Map<string, ShellWord[]> } {
  const out: ShellWord[] = [];
  const values = new Map<string, ShellWord[]>();
  const add = (option: string, word: ShellWord) => values.set(option, [...(values.get(option) ?? []), word]);
  let ended = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    if (ended || !word.value.startsWith('-') || word.value === '-') {
      out.push(word);
      continue;
    }
    if (word.value === '--') {
      ended = true;
      continue;
    }
    const equals = word.value.indexOf('=');
    const name = word.value.startsWith('--') && equals !== -1 ? word.value.slice(0, equals) : word.value;
    if (valued.includes(name)) {
      if (name !== word.value) add(name, { ...word, value: word.value.slice(equals + 1) });
      else if (index + 1 < args.length) add(name, args[++index]!);
      continue;
    }
    // A short option with its value in the same word (`-ofile`, `-tdir`).
    const short = valued.find((option) => option.length === 2 && !option.startsWith('--') && word.value.startsWith(option) && word.value.length > 2 && !word.value.startsWith('--'));
    if (short !== undefined) add(short, { ...word, value: word.value.slice(2) });
  }
  return { operands: out, values };
}

const valuesOf = (parsed: ReturnType<typeof operands>, ...options: string[]) => options.flatMap((option) => parsed.values.get(option) ?? []);
const UNKNOWN = Symbol('unknown');
type Written = ShellWord[] | { [UNKNOWN]: string };
const unknown = (reason: string): Written => ({ [UNKNOWN]: reason });

/** `cp`, `mv`, `install`, `ln`: the destination (`-t DIR`, else the last operand). */
function destination(name: string, args: readonly ShellWord[], valued: string[]): Written {
  const parsed = operands(args, ['-t', '--target-directory', ...valued]);
  const target = valuesOf(parsed, '-t', '--target-directory');
  // `mv` removes its sources; a link (`ln`, `cp -l`/`-s`) opens its source to writes through the
  // new name, in this line or a later one (a hard link has no real path leading back).
  const links = name === 'ln' || (name === 'cp' && args.some((arg) => /^-[a-zA-Z]*[ls]/.test(arg.value) || arg.value === '--link' || arg.value === '--symbolic-link'));
  if (name === 'mv' || links || (name === 'install' && args.some((arg) => arg.value === '-d' || arg.value === '--directory'))) {
    if (name === 'ln' && parsed.operands.length === 1 && target.length === 0) return [parsed.operands[0]!, { ...parsed.operands[0]!, value: path.posix.basename(parsed.operands[0]!.value) }];
    return [...parsed.operands, ...target];
  }
  if (target.length > 0) return target;
  const last = parsed.operands.at(-1);
  return last === undefined ? [] : [last];
}

/** A short option cluster holding `letter` among flags that take no value (`-pi`, `-i.bak`, `-Ei`). */
const inPlace = (args: readonly ShellWord[], flags: RegExp) => args.some((arg) => flags.test(arg.value));

/** What each well-known writing command writes, from its arguments (after the command's name). */
const WRITERS: Record<string, (args: readonly ShellWord[], name: string) => Written> = {
  tee: (args) => operands(args).operands,
  ...Object.fromEntries(
    ['rm', 'rmdir', 'unlink', 'shred', 'touch', 'mkdir', 'mkfifo', 'mknod', 'chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'ed', 'ex', 'vi', 'vim', 'nvim', 'nano', 'emacs', 'sponge'].map(
      (name) => [name, (args: readonly ShellWord[]) => operands(args, ['-m', '--mode', '--reference']).operands] as const,
    ),
  ),
  truncate: (args) => operands(args, ['-s', '--size', '-r', '--reference']).operands,
  cp: (args, name) => destination(name, args, ['-S', '--suffix']),
  mv: (args, name) => destination(name, args, ['-S', '--suffix']),
  ln: (args, name) => destination(name, args, ['-S', '--suffix']),
  install: (args, name) => destination(name, args, ['-m', '--mode', '-o', '--owner', '-g', '--group', '-S', '--suffix']),
  rsync: (args) => operands(args, ['-e', '--rsh']).operands.slice(-1),
  scp: (args) => operands(args, ['-i', '-P', '-o', '-F', '-c', '-l', '-S', '-J']).operands.slice(-1),
  dd: (args) => args.filter((arg) => arg.value.startsWith('of=')).map((arg) => ({ ...arg, value: arg.value.slice(3) })),
  sort: (args) => valuesOf(operands(args, ['-o', '--output', '-k', '--key', '-t', '--field-separator', '-T', '--temporary-directory', '-S', '--buffer-size']), '-o', '--output'),
  uniq: (args) => operands(args, ['-f', '-s', '-w']).operands.slice(1, 2),
  curl: (args) => {
    if (args.some((arg) => /^-[a-zA-Z]*O/.test(arg.value) || arg.value === '--remote-name' || arg.value === '--remote-name-all')) return unknown('curl -O names its file after the URL');
    const parsed = operands(args, ['-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar', '-H', '--header', '-d', '--data', '-X', '--request', '-u', '--user', '-A', '--user-agent', '-e', '--referer', '-b', '--cookie']);
    return valuesOf(parsed, '-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar').filter((word) => word.value !== '-');
  },
  wget: (args) => {
    const parsed = operands(args, ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '-P', '--directory-prefix']);
    const named = valuesOf(parsed, '-O', '--output-document', '-o', '--output-file', '-a', '--append-output').filter((word) => word.value !== '-');
    return valuesOf(parsed, '-O', '--output-document').length > 0 ? named : unknown('wget names its file after the URL');
  },
  sed: (args) => {
    if (!inPlace(args, /^(-[nrsuzEb]*i|--in-place(=|$))/)) return [];
    const parsed = operands(args, ['-e', '--expression', '-f', '--file', '-l', '--line-length']);
    const scripted = valuesOf(parsed, '-e', '--expression', '-f', '--file').length > 0;
    return scripted ? parsed.operands : parsed.operands.slice(1);
  },
  perl: (args) => {
    if (!inPlace(args, /^-[a-zA-Z0-9]*i/)) return [];
    const parsed = operands(args, ['-e', '-E']);
    return valuesOf(parsed, '-e', '-E').length > 0 ? parsed.operands : parsed.operands.slice(1);
  },
  ruby: (args) => (inPlace(args, /^-[a-zA-Z0-9]*i/) ? operands(args, ['-e', '-r']).operands : []),
  awk: (args) => (args.some((arg, index) => /^(-i|--include)=?inplace/.test(arg.value) || (arg.value === '-i' && args[index + 1]?.value === 'inplace')) ? operands(args, ['-f', '-v', '-F', '-i', '--include']).operands : []),
  tar: (args) => {
    const first = args[0]?.value ?? '';
    const cluster = /^-?[a-zA-Z]+$/.test(first) && !first.startsWith('--') ? first : '';
    if (cluster.includes('x') || args.some((arg) => arg.value === '--extract' || arg.value === '--get' || /^-[a-zA-Z]*x/.test(arg.value))) return unknown('tar extracts the files its archive names');
    const named: ShellWord[] = [];
    args.forEach((arg, index) => {
      if (arg.value.startsWith('--file=')) named.push({ ...arg, value: arg.value.slice(7) });
      else if ((arg.value === '--file' || /^-?[a-zA-Z]*f$/.test(arg.value)) && args[index + 1] !== undefined) named.push(args[index + 1]!);
    });
    return named;
  },
  // Tools that write the file an option names.
  openssl: (args) => args.flatMap((arg, index) => (/^-(out|keyout|signkey-out)$/.test(arg.value) && args[index + 1] !== undefined ? [args[index + 1]!] : [])),
  gpg: (args) => valuesOf(operands(args, ['-o', '--output']), '-o', '--output').filter((word) => word.value !== '-'),
  'ssh-keygen': (args) => (args.some((arg) => /^-[a-zA-Z]*[lyBF]/.test(arg.value)) ? [] : valuesOf(operands(args, ['-f', '-C', '-N', '-t', '-b', '-P', '-O', '-Z', '-a']), '-f').flatMap((word) => [word, { ...word, value: `${word.value}.pub` }])),
  script: (args) => {
    const parsed = operands(args, ['-c', '--command', '-t', '--timing', '-T', '--log-timing', '-I', '--log-in', '-O', '--log-out', '-B', '--log-io', '-E', '--echo', '-m', '--logging-format']);
    return [...parsed.operands.slice(0, 1), ...valuesOf(parsed, '-T', '--log-timing', '-I', '--log-in', '-O', '--log-out', '-B', '--log-io')];
  },
  // A database is created and changed by the statements given, or later ones.
  sqlite3: (args) => operands(args, ['-cmd', '-separator', '-newline', '-nullvalue', '-vfs', '-init']).operands.slice(0, 1),
  unzip: (args) => (args.some((arg) => /^-[a-zA-Z]*[lpZt]/.test(arg.value)) ? [] : unknown('unzip extracts the files its archive names')),
  zip: (args) => operands(args).operands.slice(0, 1),
  patch: (args) => (args.some((arg) => arg.value === '--dry-run') ? [] : unknown('patch writes the files its patch names')),
  git: (args) => {
    const parsed = operands(args, ['-C', '-c', '--git-dir', '--work-tree', '--namespace']);
    if (valuesOf(parsed, '-C', '--git-dir', '--work-tree').length > 0) return unknown('git runs in another directory');
    const [subcommand, ...rest] = parsed.operands;
    const afterSubcommand = args.slice(args.indexOf(subcommand!) + 1);
    switch (subcommand?.value) {
      case 'checkout': {
        const dashDash = afterSubcommand.findIndex((arg) => arg.value === '--');
        return dashDash === -1 ? operands(afterSubcommand, ['-b', '-B']).operands : afterSubcommand.slice(dashDash + 1);
      }
      case 'restore':
        return operands(afterSubcommand, ['-s', '--source']).operands;
      case 'rm':
      case 'mv':
        return rest;
      case 'clone': {
        // The destination, or a folder named after the repository when there is none.
        const cloned = operands(afterSubcommand, ['-b', '--branch', '-o', '--origin', '--depth', '--reference', '--separate-git-dir', '-c', '--config', '-u', '--upload-pack', '--template', '-j', '--jobs', '--filter']);
        const separate = valuesOf(cloned, '--separate-git-dir');
        return cloned.operands.length >= 2 ? [cloned.operands[1]!, ...separate] : unknown('git clone names its folder after the repository');
      }
      case 'init':
        return [...operands(afterSubcommand, ['--template', '--separate-git-dir', '-b', '--initial-branch', '--object-format', '--shared']).operands, ...valuesOf(operands(afterSubcommand, ['--separate-git-dir']), '--separate-git-dir')];
      case 'worktree': {
        const [action, ...worktreeArgs] = operands(afterSubcommand, ['-b', '-B', '--reason']).operands;
        return action?.value === 'add' ? worktreeArgs.slice(0, 1) : [];
      }
      case 'apply':
      case 'am':
        return afterSubcommand.some((arg) => arg.value === '--check' || arg.value === '--stat') ? [] : unknown(`git ${subcommand.value} writes the files its patch names`);
      default:
        return [];
    }
  },
};
WRITERS.gawk = WRITERS.awk!;

function isDirectory(absolutePath: string): boolean {
  try {
    return statSync(absolutePath).isDirectory();
  } catch {
    return false;
  }
}

/** Collects what one command line writes; paths are placed relative to every directory a `cd` may have led to. */
class WriteCollector {
  readonly paths: string[] = [];
  /** Those of `paths` that are directories on disk now. */
  readonly writtenDirectories: string[] = [];
  unknown: string | undefined;
  private places = ['.'];
  /** Scripts a command runs (`bash -c '…'`, `eval …`, a here-document fed to a shell), read like the line itself. */
  readonly scripts: string[] = [];

  constructor(private readonly boundary: WorkspaceBoundary) {}

  private setUnknown(reason: string): void {
    this.unknown ??= reason;
  }

  private place(value: string, directory: string): string {
    if (value.startsWith('~/') || value === '~') return this.boundary.lexical(value);
    return path.isAbsolute(value) ? value : path.posix.join(directory, value);
  }

  write(word: ShellWord): void {
    if (word.hasExpansion) return this.setUnknown(`${word.value} is expanded at run time`);
    // `~+`, `~-`, `~user`: directories known only at run time (`~` and `~/x` are home).
    if (word.tilde && word.value !== '~' && !word.value.startsWith('~/')) return this.setUnknown(`${word.value} starts at a directory known only at run time`);
    let values = [word.value];
    if (word.hasGlob && word.value.includes('{')) values = expandBraces(word.value, MAX_BRACE_WORDS) ?? [word.value];
    for (const value of values) {
      if (value === '' || value === '-') continue;
      if (word.hasGlob && /[*?[]/.test(value)) {
        this.setUnknown(`the glob ${value} is expanded at run time`);
        continue;
      }
      for (const directory of this.places) {
        const placed = this.place(value, directory);
        const spellings = [placed, ...ruleAliases(this.boundary, placed)];
        this.paths.push(...spellings);
        // A directory is written below (`rm -r dir`, `cp x dir`, `mv dir y`).
        if (isDirectory(this.boundary.lexical(placed))) this.writtenDirectories.push(...spellings);
      }
    }
  }

  redirects(redirects: readonly ShellRedirect[]): void {
    for (const redirect of redirects) {
      if (!WRITING_REDIRECTS.has(redirect.operator)) continue;
      if (redirect.operator === '>&' && DESCRIPTOR.test(redirect.target.value)) continue;
      this.write(redirect.target);
    }
  }

  list(list: ShellList): void {
    for (const item of list) for (const pipeline of item.andOr.pipelines) for (const node of pipeline.commands) this.node(node);
  }

  private node(node: ShellCommandNode | undefined): void {
    if (node === undefined) return;
    switch (node.type) {
      case 'simple':
        return this.command(node.command);
      case 'subshell':
      case 'group':
        this.list(node.body);
        return this.redirects(node.redirects);
      case 'function':
      case 'keyword':
        return this.node(node.body);
      case 'case':
        for (const item of node.items) this.list(item.body);
        return this.redirects(node.redirects);
    }
  }

  private command(simple: ShellSimpleCommand): void {
    this.redirects(simple.redirects);
    let start = 0;
    while (start < simple.words.length && ASSIGNMENT.test(simple.words[start]!.value) && !simple.words[start]!.hasExpansion) start++;
    const words = simple.words.slice(start);
    const [nameWord, ...args] = words;
    if (nameWord === undefined) return;
    if (nameWord.hasExpansion) return this.setUnknown(`the command ${nameWord.value} is only known at run time`);
    const name = path.posix.basename(nameWord.value);
    if (name === 'cd' || name === 'pushd') {
      const target = args.find((arg) => !arg.value.startsWith('-'));
      if (target?.hasExpansion || target?.hasGlob) return this.setUnknown('cd into a directory known only at run time');
      const next = this.places.map((directory) => (target === undefined ? this.boundary.lexical('~') : this.place(target.value, directory)));
      this.places = [...new Set([...this.places, ...next])];
      return;
    }
    if (name === 'alias') return this.setUnknown('an alias changes what later commands run');
    // Where a command may start: the first word, and behind a wrapper every word naming one.
    const starts = [0];
    if (WRAPPERS.has(name)) {
      if (args.some((arg) => arg.hasExpansion)) return this.setUnknown(`${name} runs a command known only at run time`);
      words.forEach((word, index) => {
        if (index > 0 && this.runsSomething(path.posix.basename(word.value))) starts.push(index);
      });
      if (name === 'env' && args.some((arg) => /^(-[a-zA-Z]*C|--chdir)/.test(arg.value))) return this.setUnknown('env runs its command in another directory');
      // `script -c 'rm x'`, `su -c 'rm x'` run a script given as a string.
      if (name === 'script' || name === 'su') {
        args.forEach((arg, index) => {
          if (arg.value === '-c' || arg.value === '--command') this.scripts.push(args[index + 1]?.value ?? '');
          else if (arg.value.startsWith('--command=')) this.scripts.push(arg.value.slice('--command='.length));
        });
      }
      // `env -S 'rm x'` splits its string into the command it runs.
      if (name === 'env') {
        args.forEach((arg, index) => {
          if (arg.value === '-S' || arg.value === '--split-string') this.scripts.push(args[index + 1]?.value ?? '');
          else if (arg.value.startsWith('--split-string=')) this.scripts.push(arg.value.slice('--split-string='.length));
          else if (/^-[a-zA-Z]*S./.test(arg.value)) this.scripts.push(arg.value.slice(arg.value.indexOf('S') + 1));
        });
      }
    }
    for (const index of starts) this.run(words.slice(index), simple.redirects);
  }

  private runsSomething(name: string): boolean {
    return Object.hasOwn(WRITERS, name) || SHELLS.has(name) || FROM_INPUT.has(name) || SOURCES.has(name) || name === 'eval' || name === 'find' || name === 'alias' || name === 'busybox' || name === 'make' || interpreterProgram(name, []) !== null;
  }

  /** One command as it runs: `words[0]` is its name. */
  private run(words: readonly ShellWord[], redirects: readonly ShellRedirect[]): void {
    const [nameWord, ...args] = words;
    if (nameWord === undefined) return;
    const name = path.posix.basename(nameWord.value);
    if (name === 'alias') return this.setUnknown('an alias changes what later commands run');
    if (name === 'eval') {
      if (args.some((word) => word.hasExpansion)) return this.setUnknown('eval runs a script known only at run time');
      this.scripts.push(args.map((word) => word.value).join(' '));
      return;
    }
    if (SHELLS.has(name)) return this.shell(args, redirects);
    // `busybox rm x` runs its applet `rm`.
    if (name === 'busybox') return this.run(args, redirects);
    if (SOURCES.has(name)) return this.source(args, redirects);
    if (name === 'split' || name === 'csplit' || name === 'mktemp') {
      if (operands(args).operands.length > 0 || args.some((arg) => /^(-p|--tmpdir|-f|--prefix)/.test(arg.value))) this.setUnknown(`${name} makes files whose names are known only at run time`);
      return;
    }
    if (FROM_INPUT.has(name)) {
      if (args.some((arg) => this.runsSomething(path.posix.basename(arg.value)))) this.setUnknown(`${name} takes the names of the files to write from its input`);
      return;
    }
    if (name === 'find') {
      if (args.some((arg) => arg.value === '-delete')) return this.setUnknown('find -delete removes the files it finds');
      const exec = args.findIndex((arg) => /^-(exec|execdir|ok|okdir)$/.test(arg.value));
      if (exec !== -1 && args[exec + 1] !== undefined && this.runsSomething(path.posix.basename(args[exec + 1]!.value))) this.setUnknown(`find ${args[exec]!.value} writes the files it finds`);
      if (args.some((arg) => /^-fprint/.test(arg.value) || arg.value === '-fls')) this.setUnknown('find writes a file it names in an option');
      return;
    }
    // Code written on the line itself (`python3 -c`, `node -e`, awk's `system(`, sed's `w`) may write anything.
    const inline = inlineProgramProblem(name, args);
    if (inline !== undefined) this.setUnknown(inline);
    // Own entries only: a command named `constructor` or `__proto__` is no writer of ours.
    const writer = ownValue(WRITERS, name);
    if (writer === undefined) return;
    const written = writer(args, name);
    if (UNKNOWN in written) return this.setUnknown(written[UNKNOWN]);
    for (const word of written) this.write(word);
  }

  /** `source file` / `. file`: a script file is the program's own (as `bash file`); one read from input or a substitution is unknown. */
  private source(args: readonly ShellWord[], redirects: readonly ShellRedirect[]): void {
    const file = args.find((word) => !word.value.startsWith('-'));
    if (file === undefined) return;
    if (file.hasExpansion) return this.setUnknown(`${file.value} is a script known only at run time`);
    if (/^\/dev\/(stdin|fd\/|tty)|^\/proc\/self\/fd\//.test(file.value) || file.value === '-') return this.shell([], redirects);
  }

  /** A shell: the script of `-c`, or a here-document or string it reads as its script; a script it reads from elsewhere is unknown. */
  private shell(args: readonly ShellWord[], redirects: readonly ShellRedirect[]): void {
    const option = args.findIndex((word) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word.value));
    const script = option === -1 ? undefined : args.slice(option + 1).find((word) => !word.value.startsWith('-'));
    if (script?.hasExpansion) return this.setUnknown('the shell runs a script known only at run time');
    if (script !== undefined) {
      this.scripts.push(script.value);
      return;
    }
    // A script file (`bash build.sh`) is not read here: like any program, what it writes is its own.
    if (args.some((word) => !word.value.startsWith('-'))) return;
    const fed = redirects.filter((redirect) => redirect.operator === '<<' || redirect.operator === '<<-' || redirect.operator === '<<<');
    if (fed.length === 0) return this.setUnknown('the shell reads its commands from its input');
    for (const redirect of fed) {
      if (redirect.operator === '<<<' && redirect.target.hasExpansion) return this.setUnknown('the shell runs a script known only at run time');
      this.scripts.push(redirect.body ?? redirect.target.value);
    }
  }
}

/**
 * What a Bash command writes, for `Edit(...)` and `Write(...)` deny and ask rules: the targets of
 * output redirections (`>`, `>>`, `&>`, `<>` …, also on groups and loops), and the written
 * operands of well-known writing commands — `tee`, `cp`/`mv`/`install`/`ln` (the destination,
 * `-t`; `mv` and links, `ln` and `cp -l`/`-s`, their sources too), `rm`, `rmdir`, `touch`, `mkdir`, `truncate`, `chmod`, `shred`,
 * `sed -i`, `perl -i`, `dd of=`, `sort -o`, `curl -o`, `wget -O`, `tar -f`, `git checkout -- …`,
 * `git restore`, `git rm`/`mv`, `git clone`/`init`/`worktree add`, `openssl -out`, `gpg -o`,
 * `ssh-keygen -f`, `script`, `sqlite3` — also behind `sudo`, `env`, `timeout`, `nice` …, in `bash -c`,
 * `eval`, `env -S`, here-documents fed to a shell and substitutions, each relative to every
 * directory a `cd` may have led to, with their real paths. What cannot be named before the
 * command runs is `unknown`: expansions and globs in such places, `xargs rm`, `find -delete`,
 * `tar -x`, `patch`, a shell reading its input, a line that does not parse, code written on the
 * line itself (`python3 -c`, `node -e`, awk's `system(`, sed's `w`: {@link inlineProgramProblem}). Programs that write
 * on their own (`python script.py`, `make`, `npm install`, `git pull`) are not modelled: an
 * `Edit` deny rule is a rule about the file tools and the shell's own writes, not a sandbox.
 */
export function bashWriteTargets(boundary: WorkspaceBoundary, command: string): WriteTargets {
  const collector = new WriteCollector(boundary);
  const pending = [command];
  for (let depth = 0; pending.length > 0 && depth < 16; depth++) {
    const parsed = parseShellCommand(pending.shift()!);
    if (parsed.error !== undefined) return { paths: [...new Set(collector.paths)], unknown: `the command could not be parsed (${parsed.error})` };
    collector.list(parsed.tree);
    pending.push(...parsed.substitutions, ...collector.scripts.splice(0));
  }
  if (pending.length > 0) collector.unknown ??= 'the command nests scripts too deep to follow';
  const targets: WriteTargets = { paths: [...new Set(collector.paths)], directories: [...new Set(collector.writtenDirectories)] };
  if (collector.unknown !== undefined) targets.unknown = collector.unknown;
  return targets;
}
