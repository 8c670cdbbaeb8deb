/**
 * A small tokenizer for POSIX/bash command lines, precise enough for the Bash classifier and the
 * catastrophic-command check: quotes, escapes, operators, redirections and here-documents are
 * handled; expansions are recorded but never performed. Constructs it does not model (subshells,
 * process substitution, background jobs) are reported in `unsupported` instead of guessed at.
 */

/** One word of a simple command, after quote removal. */
export interface ShellWord {
  /** The value after quote and escape removal; expansions (`$x`, `$(...)`) stay as written. */
  value: string;
  /** Contains a `$` or a backtick outside single quotes: its value is only known at run time. */
  hasExpansion: boolean;
  /** Contains unquoted `*`, `?`, `[`, `{` or `}`: the shell may turn it into other words. */
  hasGlob: boolean;
  /** Starts with an unquoted `~` (a tilde prefix: `~`, `~/x`, `~user`, `~+`, `~-`); absent when not. */
  tilde?: boolean;
}

/** A redirection such as `2>/dev/null` or `< input.txt`. */
export interface ShellRedirect {
  /** The operator: `<`, `>`, `>>`, `>|`, `<>`, `<&`, `>&`, `&>`, `&>>`, `<<`, `<<-` or `<<<`. */
  operator: string;
  /** The file descriptor written before the operator, e.g. `2` in `2>&1`. */
  fd: string | undefined;
  /** The target word (a file, a descriptor number, or a here-document delimiter). */
  target: ShellWord;
  /** The text of a here-document (`<<`, `<<-`), lines joined with newlines; absent for other operators. */
  body?: string;
}

/** A command with its words and redirections, e.g. `grep -n foo src 2>/dev/null`. */
export interface ShellSimpleCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
}

/** The result of {@link parseShellCommand}. */
export interface ParsedShellCommand {
  /** The simple commands, in source order. */
  commands: ShellSimpleCommand[];
  /** Operators found between commands: `;`, `&&`, `||`, `|`, `|&`, `&`. */
  operators: string[];
  /** Constructs the parser records but does not model, each described in a few words. */
  unsupported: string[];
  /** The inner text of every `$(...)`, `` `...` ``, `<(...)` and `>(...)`. */
  substitutions: string[];
  /** Set when the text cannot be parsed (e.g. an unterminated quote). */
  error: string | undefined;
}

import { findClosingBracket } from './find-closing-bracket.js';

const BLANK = new Set([' ', '\t']);
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const GLOB_CHARS = new Set(['*', '?', '[', '{', '}']);
const REDIRECT_OPERATORS = ['<<<', '<<-', '&>>', '<<', '<>', '<&', '>>', '>&', '>|', '&>', '<', '>'];

class ParseFailure extends Error {}

/**
 * Splits a shell command line into simple commands, operators and redirections.
 * @param command - the command line, as given to `bash -c`.
 * @example parseShellCommand('ls -la | grep "a b"').commands.map((c) => c.words.map((w) => w.value))
 * // [['ls', '-la'], ['grep', 'a b']]
 */
export function parseShellCommand(command: string): ParsedShellCommand {
  const result: ParsedShellCommand = { commands: [], operators: [], unsupported: [], substitutions: [], error: undefined };
  try {
    new ShellParser(command, result).run();
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    result.error = error.message;
  }
  return result;
}

class ShellParser {
  private i = 0;
  private current: ShellSimpleCommand = { words: [], redirects: [] };
  private pendingHereDocs: Array<{ redirect: ShellRedirect; stripTabs: boolean }> = [];

  constructor(
    private readonly src: string,
    private readonly out: ParsedShellCommand,
  ) {}

  run(): void {
    const src = this.src;
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (BLANK.has(c)) {
        this.i++;
      } else if (c === '\n') {
        this.i++;
        this.endCommand(';');
        this.skipHereDocBodies();
      } else if (c === '#') {
        while (this.i < src.length && src[this.i] !== '\n') this.i++;
      } else if (c === '\\' && src[this.i + 1] === '\n') {
        this.i += 2;
      } else if (this.readOperator()) {
        // handled
      } else {
        this.current.words.push(this.readWord());
      }
    }
    if (this.pendingHereDocs.length > 0) throw new ParseFailure('a here-document has no body');
    const last = this.out.operators[this.out.operators.length - 1];
    const empty = this.current.words.length === 0 && this.current.redirects.length === 0;
    if (empty && last !== undefined && last !== ';' && last !== '&' && this.out.operators.length >= this.out.commands.length) {
      throw new ParseFailure(`the command ends with "${last}"`);
    }
    this.endCommand(undefined);
  }

  private endCommand(operator: string | undefined): void {
    const hasContent = this.current.words.length > 0 || this.current.redirects.length > 0;
    if (hasContent) this.out.commands.push(this.current);
    else if (operator !== undefined && operator !== ';') throw new ParseFailure(`"${operator}" has no command before it`);
    if (operator !== undefined && hasContent) this.out.operators.push(operator);
    this.current = { words: [], redirects: [] };
  }

  /** Reads a control or redirection operator at the cursor; returns false when there is none. */
  private readOperator(): boolean {
    const src = this.src;
    const rest = src.slice(this.i, this.i + 3);
    if (rest.startsWith('<(') || rest.startsWith('>(')) {
      this.i += 1;
      this.out.substitutions.push(this.readBalanced('(', ')'));
      this.out.unsupported.push('process substitution');
      return true;
    }
    const fdMatch = /^(\d+)(?=[<>])/.exec(src.slice(this.i, this.i + 12));
    if (fdMatch) {
      this.i += fdMatch[1]!.length;
      this.readRedirect(fdMatch[1]);
      return true;
    }
    for (const op of REDIRECT_OPERATORS) {
      if (rest.startsWith(op)) {
        this.readRedirect(undefined);
        return true;
      }
    }
    for (const op of ['&&', '||', '|&', ';;', ';&', ';', '&', '|']) {
      if (rest.startsWith(op)) {
        this.i += op.length;
        if (op === ';;' || op === ';&') this.out.unsupported.push(`case terminator "${op}"`);
        if (op === '&') this.out.unsupported.push('background job "&"');
        this.endCommand(op);
        return true;
      }
    }
    if (rest.startsWith('(') || rest.startsWith(')')) {
      this.i += 1;
      this.out.unsupported.push(`subshell or function definition "${rest[0]}"`);
      this.endCommand(';');
      return true;
    }
    return false;
  }

  private readRedirect(fd: string | undefined): void {
    const op = REDIRECT_OPERATORS.find((candidate) => this.src.startsWith(candidate, this.i))!;
    this.i += op.length;
    while (this.i < this.src.length && BLANK.has(this.src[this.i]!)) this.i++;
    const next = this.src[this.i];
    if (next === undefined || WORD_END.has(next)) throw new ParseFailure(`redirection "${op}" has no target`);
    const target = this.readWord();
    const redirect: ShellRedirect = { operator: op, fd, target };
    this.current.redirects.push(redirect);
    if (op === '<<' || op === '<<-') this.pendingHereDocs.push({ redirect, stripTabs: op === '<<-' });
  }

  /** Skips the bodies of here-documents that started on the line just ended. */
  private skipHereDocBodies(): void {
    while (this.pendingHereDocs.length > 0) {
      const { redirect, stripTabs } = this.pendingHereDocs.shift()!;
      const delimiter = redirect.target.value;
      const lines: string[] = [];
      for (;;) {
        if (this.i >= this.src.length) throw new ParseFailure(`here-document "${delimiter}" is not terminated`);
        const end = this.src.indexOf('\n', this.i);
        const lineEnd = end === -1 ? this.src.length : end;
        let line = this.src.slice(this.i, lineEnd);
        if (stripTabs) line = line.replace(/^\t+/, '');
        this.i = end === -1 ? this.src.length : end + 1;
        if (line === delimiter) break;
        lines.push(line);
      }
      redirect.body = lines.join('\n');
    }
  }

  private readWord(): ShellWord {
    const src = this.src;
    const word: ShellWord = { value: '', hasExpansion: false, hasGlob: false };
    if (src[this.i] === '~') word.tilde = true;
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (WORD_END.has(c)) break;
      if (c === "'") {
        const end = src.indexOf("'", this.i + 1);
        if (end === -1) throw new ParseFailure('unterminated single quote');
        word.value += src.slice(this.i + 1, end);
        this.i = end + 1;
      } else if (c === '"') {
        this.readDoubleQuoted(word);
      } else if (c === '\\') {
        const next = src[this.i + 1];
        if (next === undefined) throw new ParseFailure('a trailing backslash escapes nothing');
        if (next !== '\n') word.value += next;
        this.i += 2;
      } else if (c === '$') {
        this.readDollar(word);
      } else if (c === '`') {
        word.hasExpansion = true;
        word.value += this.readBackticks();
      } else {
        if (GLOB_CHARS.has(c)) word.hasGlob = true;
        word.value += c;
        this.i++;
      }
    }
    return word;
  }

  private readDoubleQuoted(word: ShellWord): void {
    const src = this.src;
    this.i++;
    for (;;) {
      const c = src[this.i];
      if (c === undefined) throw new ParseFailure('unterminated double quote');
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\') {
        const next = src[this.i + 1];
        if (next === undefined) throw new ParseFailure('unterminated double quote');
        if (next === '$' || next === '`' || next === '"' || next === '\\') word.value += next;
        else if (next !== '\n') word.value += c + next;
        this.i += 2;
      } else if (c === '$') {
        this.readDollar(word);
      } else if (c === '`') {
        word.hasExpansion = true;
        word.value += this.readBackticks();
      } else {
        word.value += c;
        this.i++;
      }
    }
  }

  /** `$name`, `${...}`, `$(...)`, `$((...))`, `$'...'`: recorded as an expansion, kept as text. */
  private readDollar(word: ShellWord): void {
    const src = this.src;
    const next = src[this.i + 1];
    word.hasExpansion = true;
    if (next === '(') {
      this.i += 1;
      const inner = this.readBalanced('(', ')');
      this.out.substitutions.push(inner.startsWith('(') && inner.endsWith(')') ? inner.slice(1, -1) : inner);
      word.value += `$(${inner})`;
    } else if (next === '{') {
      this.i += 1;
      word.value += `\${${this.readBalanced('{', '}')}}`;
    } else if (next === "'") {
      let j = this.i + 2;
      while (j < src.length && src[j] !== "'") j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) throw new ParseFailure("unterminated $'...' quote");
      word.value += src.slice(this.i, j + 1);
      this.i = j + 1;
    } else {
      word.value += '$';
      this.i += 1;
    }
  }

  private readBackticks(): string {
    const src = this.src;
    let j = this.i + 1;
    let inner = '';
    while (j < src.length && src[j] !== '`') {
      if (src[j] === '\\' && j + 1 < src.length) {
        inner += src[j + 1];
        j += 2;
      } else {
        inner += src[j];
        j += 1;
      }
    }
    if (j >= src.length) throw new ParseFailure('unterminated backtick');
    this.i = j + 1;
    this.out.substitutions.push(inner);
    return `\`${inner}\``;
  }

  /** Reads from an opening bracket at the cursor to its match (see {@link findClosingBracket}); returns the inside. */
  private readBalanced(open: '(' | '{', close: ')' | '}'): string {
    const found = findClosingBracket(this.src, this.i, open, close);
    if (typeof found === 'string') throw new ParseFailure(found);
    const inside = this.src.slice(this.i + 1, found);
    this.i = found + 1;
    return inside;
  }
}
