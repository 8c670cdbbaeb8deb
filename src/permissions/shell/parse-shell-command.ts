import { findClosingBracket } from './find-closing-bracket.js';
import type { ParsedShellCommand, ShellAndOr, ShellCommandNode, ShellList, ShellPipeline, ShellRedirect, ShellSimpleCommand, ShellWord } from './shell-syntax.js';

// The one shell parser of the library: permission rules (`Bash(npm test:*)`), the read-only
// classifier, the path analysis and the catastrophic-command check all read its tree.
//
// Why hand-written and not tree-sitter's bash grammar (measured on Node 20.20, Dec 2026, on the
// same command line, same loaded 2-core machine): `web-tree-sitter` 0.25.10 with `tree-sitter-bash`
// 0.25.1 (or `@vscode/tree-sitter-wasm` 0.3.1) parses correctly with no native build, at 115-330 µs
// a command plus 25-38 ms and ~37 MB to load; this parser takes 18-23 µs. Decisive: the grammar can
// only be loaded asynchronously (`Parser.init()`, `Language.load()`), from a WASM file that core
// code cannot locate without `node:*` (or `fetch`), while rule matching, `isReadOnlyCall` and the
// core are synchronous and runtime-neutral, and the package ships CommonJS (no top-level await).
// This parser runs synchronously everywhere and fails closed: whatever it does not model is
// reported in `unsupported` or `error`, and every caller then asks instead of guessing. Its
// answers are tested against real bash (test/permissions/shell/*.bash-oracle.test.ts).

const BLANK = new Set([' ', '\t']);
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const GLOB_CHARS = new Set(['*', '?', '[', '{', '}']);

/** Whether `value` holds an array subscript with an expansion in it: `a[$(cmd)]`, `a[\`cmd\`]`, `a[${x:=y}]` (one pass). */
function hasSubscriptExpansion(value: string): boolean {
  let open = false;
  for (let index = 0; index < value.length; index++) {
    const c = value[index];
    if (c === '[') open = true;
    else if (c === ']') open = false;
    else if (open && (c === '$' || c === '`')) return true;
  }
  return false;
}

/** The command texts of the `$(…)` and backtick substitutions in a literal value (unbalanced: the rest). */
function subscriptCommands(value: string): string[] {
  const commands: string[] = [];
  for (let index = 0; index < value.length; index++) {
    if (value[index] === '`') {
      const end = value.indexOf('`', index + 1);
      commands.push(value.slice(index + 1, end === -1 ? undefined : end));
      if (end === -1) break;
      index = end;
    } else if (value.startsWith('$(', index)) {
      let depth = 0;
      let end = index + 1;
      for (; end < value.length; end++) {
        if (value[end] === '(') depth++;
        else if (value[end] === ')' && --depth === 0) break;
      }
      commands.push(value.slice(index + 2, end));
      index = end;
    }
  }
  return commands;
}
const REDIRECT_OPERATORS = ['<<<', '<<-', '&>>', '<<', '<>', '<&', '>>', '>&', '>|', '&>', '<', '>'];
/** Reserved words that start or continue a compound command; the command after them is parsed on. */
const PREFIX_KEYWORDS = new Set(['if', 'then', 'elif', 'else', 'while', 'until', 'do', 'for', 'select', 'time', 'coproc']);
/** Reserved words that end a compound command. */
const END_KEYWORDS = new Set(['fi', 'done', 'esac', '}', ']]']);
const MAX_DEPTH = 64;
/** What bash accepts as a function name in `name() body` (it is more lenient than POSIX). */
const NAME = /^[^\s$`'"\\=]+$/;

class ParseFailure extends Error {}

/**
 * Parses a shell command line (bash syntax) into a tree of lists, and-or lists, pipelines and
 * commands (simple commands, subshells, groups, functions, `case`, and reserved words with the
 * command after them), with quote removal, escapes, redirections and here-documents. Expansions
 * are recorded but never performed. It fails closed: text it cannot parse sets `error`.
 * @param command - the command line, as given to `bash -c`.
 * @example parseShellCommand('ls -la | grep "a b"').commands.map((c) => c.words.map((w) => w.value))
 * // [['ls', '-la'], ['grep', 'a b']]
 */
export function parseShellCommand(command: string): ParsedShellCommand {
  const result: ParsedShellCommand = { tree: [], commands: [], unsupported: [], substitutions: [], error: undefined };
  try {
    result.tree = new ShellParser(command, result).program();
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    result.error = error.message;
    result.tree = [];
  }
  return result;
}

class ShellParser {
  private i = 0;
  private depth = 0;
  private pendingHereDocs: Array<{ redirect: ShellRedirect; stripTabs: boolean }> = [];
  private readonly quotedDelimiters = new Set<ShellRedirect>();
  private lastWordQuoted = false;

  constructor(
    private readonly src: string,
    private readonly out: ParsedShellCommand,
  ) {}

  program(): ShellList {
    if (this.src.includes('\0')) throw new ParseFailure('the command contains a NUL character');
    const list = this.list(() => false);
    if (this.i < this.src.length) throw new ParseFailure(`unexpected "${this.src[this.i]}"`);
    if (this.pendingHereDocs.length > 0) throw new ParseFailure('a here-document has no body');
    return list;
  }

  /** Skips blanks, line continuations and comments (not newlines). */
  private blanks(): void {
    const src = this.src;
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (BLANK.has(c)) this.i++;
      else if (c === '\\' && src[this.i + 1] === '\n') this.i += 2;
      else if (c === '#') while (this.i < src.length && src[this.i] !== '\n') this.i++;
      else return;
    }
  }

  /** Skips blanks and newlines (reading here-document bodies after each newline). */
  private linebreaks(): void {
    for (;;) {
      this.blanks();
      if (this.src[this.i] !== '\n') return;
      this.i++;
      this.hereDocBodies();
    }
  }

  private at(text: string): boolean {
    return this.src.startsWith(text, this.i);
  }

  /** The unquoted literal word at the cursor (for reserved words), without consuming it. */
  private peekWord(): string | undefined {
    const match = /^[^\s;&|()<>'"\\$`]+/.exec(this.src.slice(this.i, this.i + 16));
    const word = match?.[0];
    if (word === undefined) return undefined;
    const after = this.src[this.i + word.length];
    return after === undefined || WORD_END.has(after) ? word : undefined;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw new ParseFailure(`the command nests more than ${MAX_DEPTH} levels deep`);
  }

  /** A list, up to the end, a `)` or a reserved word that `stop` accepts. */
  private list(stop: (word: string | undefined) => boolean): ShellList {
    this.enter();
    const items: ShellList = [];
    for (;;) {
      this.linebreaks();
      while (this.at(';') && !this.at(';;') && !this.at(';&')) {
        this.i++;
        this.linebreaks();
      }
      if (this.i >= this.src.length || this.at(')') || this.at(';;') || this.at(';&') || stop(this.peekWord())) break;
      const andOr = this.andOr();
      this.blanks();
      let background = false;
      if (this.at('&') && !this.at('&&') && !this.at('&>')) {
        this.i++;
        background = true;
        this.out.unsupported.push('background job "&"');
      } else if (this.at(';') && !this.at(';;') && !this.at(';&')) {
        this.i++;
      } else if (this.at('\n')) {
        this.i++;
        this.hereDocBodies();
      } else if (!(this.i >= this.src.length || this.at(')') || this.at(';;') || this.at(';&') || stop(this.peekWord()))) {
        throw new ParseFailure(`unexpected "${this.src[this.i]}"`);
      }
      items.push({ andOr, background });
    }
    this.depth--;
    return items;
  }

  private andOr(): ShellAndOr {
    const result: ShellAndOr = { pipelines: [this.pipeline()], operators: [] };
    for (;;) {
      this.blanks();
      const operator = this.at('&&') ? '&&' : this.at('||') ? '||' : undefined;
      if (operator === undefined) return result;
      this.i += 2;
      this.linebreaks();
      if (this.i >= this.src.length) throw new ParseFailure(`the command ends with "${operator}"`);
      result.operators.push(operator);
      result.pipelines.push(this.pipeline());
    }
  }

  private pipeline(): ShellPipeline {
    this.blanks();
    let negated = false;
    while (this.peekWord() === '!') {
      negated = true;
      this.i++;
      this.blanks();
    }
    const commands = [this.command()];
    for (;;) {
      this.blanks();
      if (!this.at('|') || this.at('||')) return { negated, commands };
      this.i += this.at('|&') ? 2 : 1;
      this.linebreaks();
      if (this.i >= this.src.length) throw new ParseFailure('the command ends with "|"');
      commands.push(this.command());
    }
  }

  private command(): ShellCommandNode {
    this.blanks();
    const c = this.src[this.i];
    if (c === undefined) throw new ParseFailure('a command is missing');
    if (this.at('((')) return this.arithmetic();
    if (c === '(') {
      this.i++;
      const body = this.list(() => false);
      if (!this.at(')')) throw new ParseFailure('unterminated "("');
      this.i++;
      return { type: 'subshell', body, redirects: this.trailingRedirects() };
    }
    if (c === ')' || c === ';' || c === '|' || (c === '&' && !this.at('&>'))) throw new ParseFailure(`"${this.at('&&') || this.at('||') ? this.src.slice(this.i, this.i + 2) : c}" has no command before it`);
    const word = this.peekWord();
    if (word === '{') {
      this.i++;
      const body = this.list((next) => next === '}');
      if (this.peekWord() !== '}') throw new ParseFailure('unterminated "{"');
      this.i++;
      return { type: 'group', body, redirects: this.trailingRedirects() };
    }
    if (word === 'case') return this.caseCommand();
    if (word === 'function') return this.functionKeyword();
    if (word !== undefined && PREFIX_KEYWORDS.has(word)) {
      this.i += word.length;
      this.out.unsupported.push(`compound command "${word}"`);
      this.blanks();
      // `time -p cmd`: the keyword's own options are not the command.
      while (word === 'time' && /^(-p|--)$/.test(this.peekWord() ?? '')) {
        this.i += this.peekWord()!.length;
        this.blanks();
      }
      const ends = this.i >= this.src.length || /^[;&|)\n]/.test(this.src[this.i]!) || END_KEYWORDS.has(this.peekWord() ?? '');
      return { type: 'keyword', keyword: word, body: ends ? undefined : this.command() };
    }
    if (word !== undefined && END_KEYWORDS.has(word)) {
      this.out.unsupported.push(`compound command "${word}"`);
    }
    return this.simple();
  }

  /** `(( expression ))`: one opaque word; its text is scanned like a substitution. */
  private arithmetic(): ShellCommandNode {
    const start = this.i;
    const inner = this.balanced('(', ')');
    this.out.substitutions.push(inner.slice(1, -1));
    this.out.unsupported.push('arithmetic command "(( ))"');
    const command: ShellSimpleCommand = { words: [{ value: this.src.slice(start, this.i), hasExpansion: true, hasGlob: false }], redirects: [], text: '' };
    command.redirects = this.trailingRedirects();
    command.text = collapse(this.src.slice(start, this.i));
    this.out.commands.push(command);
    return { type: 'simple', command };
  }

  private functionKeyword(): ShellCommandNode {
    this.i += 'function'.length;
    this.blanks();
    const name = this.readWord();
    this.blanks();
    if (this.at('(')) {
      this.i++;
      this.blanks();
      if (!this.at(')')) throw new ParseFailure('a function definition needs "()"');
      this.i++;
    }
    return this.functionBody(name.value);
  }

  private functionBody(name: string): ShellCommandNode {
    this.out.unsupported.push(`function definition "${name}"`);
    this.linebreaks();
    return { type: 'function', name, body: this.command() };
  }

  private caseCommand(): ShellCommandNode {
    this.i += 'case'.length;
    this.out.unsupported.push('compound command "case"');
    this.blanks();
    const subject = this.readWord();
    this.linebreaks();
    if (this.peekWord() !== 'in') throw new ParseFailure('"case" needs "in"');
    this.i += 2;
    const items: Array<{ patterns: ShellWord[]; body: ShellList }> = [];
    for (;;) {
      this.linebreaks();
      if (this.peekWord() === 'esac') {
        this.i += 4;
        break;
      }
      if (this.i >= this.src.length) throw new ParseFailure('"case" is not closed by "esac"');
      if (this.at('(')) this.i++;
      const patterns: ShellWord[] = [];
      for (;;) {
        this.blanks();
        patterns.push(this.readWord());
        this.blanks();
        if (this.at('|')) this.i++;
        else break;
      }
      if (!this.at(')')) throw new ParseFailure('a "case" pattern needs ")"');
      this.i++;
      const body = this.list((next) => next === 'esac');
      items.push({ patterns, body });
      if (this.at(';;&')) this.i += 3;
      else if (this.at(';;') || this.at(';&')) this.i += 2;
    }
    return { type: 'case', subject, items, redirects: this.trailingRedirects() };
  }

  /** Redirections after a compound command: `( … ) > out`, `done < in`. */
  private trailingRedirects(): ShellRedirect[] {
    const redirects: ShellRedirect[] = [];
    for (;;) {
      this.blanks();
      const redirect = this.redirectAtCursor();
      if (redirect === undefined) return redirects;
      redirects.push(redirect);
    }
  }

  private redirectAtCursor(): ShellRedirect | undefined {
    const fdMatch = /^(\d+)(?=[<>])/.exec(this.src.slice(this.i, this.i + 12));
    if (fdMatch) {
      this.i += fdMatch[1]!.length;
      return this.readRedirect(fdMatch[1]);
    }
    if (this.at('<(') || this.at('>(')) return undefined;
    return REDIRECT_OPERATORS.some((op) => this.at(op)) ? this.readRedirect(undefined) : undefined;
  }

  private simple(): ShellCommandNode {
    const start = this.i;
    let end = this.i;
    const command: ShellSimpleCommand = { words: [], redirects: [], text: '' };
    const src = this.src;
    for (;;) {
      this.blanks();
      if (this.i >= src.length) break;
      const c = src[this.i]!;
      if (c === '\n' || c === ';' || c === '|' || c === ')' || (c === '&' && !this.at('&>'))) break;
      const redirect = this.redirectAtCursor();
      if (redirect) {
        command.redirects.push(redirect);
        end = this.i;
        continue;
      }
      const last = command.words[command.words.length - 1];
      if (c === '(' && last !== undefined && src[this.i - 1] === '=' && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(last.value)) {
        // `name=(a b c)`: an array assignment; its elements are scanned like a substitution.
        const elements = this.balanced('(', ')');
        this.out.substitutions.push(elements.slice(1, -1));
        this.out.unsupported.push('array assignment');
        last.value += elements;
        last.hasExpansion = true;
        end = this.i;
        continue;
      }
      if (c === '(') {
        // `name() body`: a function definition; any other `(` here is a syntax error in bash.
        if (command.words.length === 1 && command.redirects.length === 0 && !command.words[0]!.hasExpansion && NAME.test(command.words[0]!.value) && /^\(\s*\)/.test(src.slice(this.i))) {
          this.i = src.indexOf(')', this.i) + 1;
          return this.functionBody(command.words[0]!.value);
        }
        throw new ParseFailure('unexpected "("');
      }
      if (command.words.length === 0 && command.redirects.length === 0 && this.at('[[') && /^\[\[[\s]/.test(src.slice(this.i, this.i + 3))) {
        command.words = this.conditional();
        end = this.i;
        this.out.unsupported.push('conditional "[[ ]]"');
        continue;
      }
      command.words.push(this.readWord());
      end = this.i;
    }
    if (command.words.length === 0 && command.redirects.length === 0) throw new ParseFailure('a command is missing');
    command.text = collapse(src.slice(start, end));
    this.out.commands.push(command);
    return { type: 'simple', command };
  }

  /** `[[ … ]]`: operators inside are words of the test, up to the closing `]]`. */
  private conditional(): ShellWord[] {
    const words: ShellWord[] = [];
    for (;;) {
      this.blanks();
      if (this.i >= this.src.length) throw new ParseFailure('"[[" is not closed by "]]"');
      const operator = /^(&&|\|\||[()<>!]|==|=~|!=)/.exec(this.src.slice(this.i, this.i + 2));
      if (operator && (operator[1] !== '!' || BLANK.has(this.src[this.i + 1] ?? ' '))) {
        words.push({ value: operator[1]!, hasExpansion: false, hasGlob: false });
        this.i += operator[1]!.length;
        continue;
      }
      if (this.src[this.i] === '\n') {
        this.i++;
        continue;
      }
      const word = this.readWord();
      words.push(word);
      if (word.value === ']]' && !word.hasExpansion) return words;
    }
  }

  private readRedirect(fd: string | undefined): ShellRedirect {
    const op = REDIRECT_OPERATORS.find((candidate) => this.at(candidate))!;
    this.i += op.length;
    this.blanks();
    const next = this.src[this.i];
    const processSubstitution = this.at('<(') || this.at('>(');
    if (next === undefined || (WORD_END.has(next) && !processSubstitution)) throw new ParseFailure(`redirection "${op}" has no target`);
    const target = this.readWord();
    const redirect: ShellRedirect = { operator: op, fd, target };
    if (op === '<<' || op === '<<-') {
      this.pendingHereDocs.push({ redirect, stripTabs: op === '<<-' });
      if (this.lastWordQuoted) this.quotedDelimiters.add(redirect);
    }
    return redirect;
  }

  /** Reads the bodies of here-documents that started on the line just ended. */
  private hereDocBodies(): void {
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
      // With an unquoted delimiter the body is expanded: a `$(…)` or backtick in it runs.
      if (!this.quotedDelimiters.has(redirect)) this.bodySubstitutions(redirect.body);
    }
  }

  /** Records the `$(…)` and backtick substitutions of an expanded here-document body. */
  private bodySubstitutions(body: string): void {
    for (let j = 0; j < body.length; j++) {
      if (body[j] === '\\') {
        j++;
      } else if (body[j] === '$' && body[j + 1] === '(') {
        const end = findClosingBracket(body, j + 1, '(', ')');
        if (typeof end === 'string') throw new ParseFailure(`here-document: ${end}`);
        this.out.substitutions.push(body.slice(j + 2, end));
        j = end;
      } else if (body[j] === '`') {
        const end = body.indexOf('`', j + 1);
        if (end === -1) throw new ParseFailure('here-document: unterminated backtick');
        this.out.substitutions.push(body.slice(j + 1, end));
        j = end;
      }
    }
  }

  private readWord(): ShellWord {
    const src = this.src;
    const start = this.i;
    const word: ShellWord = { value: '', hasExpansion: false, hasGlob: false };
    if (src[this.i] === '~') word.tilde = true;
    while (this.i < src.length) {
      const c = src[this.i]!;
      if ((c === '<' || c === '>') && src[this.i + 1] === '(') {
        this.i += 1;
        const inner = this.balanced('(', ')');
        this.out.substitutions.push(inner.slice(1, -1));
        this.out.unsupported.push('process substitution');
        word.hasExpansion = true;
        word.value += c + inner;
        continue;
      }
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
      } else if (c === '$' || c === '`') {
        this.readExpansion(word);
      } else {
        if (GLOB_CHARS.has(c)) word.hasGlob = true;
        word.value += c;
        this.i++;
      }
    }
    if (this.i === start) throw new ParseFailure(`unexpected "${src[this.i] ?? 'end'}"`);
    this.lastWordQuoted = /['"\\]/.test(src.slice(start, this.i));
    if (!word.hasExpansion && hasSubscriptExpansion(word.value)) {
      // Quoted, but bash expands an array subscript when a builtin takes the word as a variable
      // name (`test -v 'a[$(cmd)]'`, `printf -v`, `unset`, `read`): its commands are commands.
      word.hasExpansion = true;
      this.out.substitutions.push(...subscriptCommands(word.value));
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
      } else if (c === '$' || c === '`') {
        this.readExpansion(word);
      } else {
        word.value += c;
        this.i++;
      }
    }
  }

  /** A `$…` expansion or a backtick substitution at the cursor, read into the word. */
  private readExpansion(word: ShellWord): void {
    if (this.src[this.i] === '$') return this.readDollar(word);
    word.hasExpansion = true;
    word.value += this.readBackticks();
  }

  /** `$name`, `${...}`, `$(...)`, `$((...))`, `$'...'`: recorded as an expansion, kept as text. */
  private readDollar(word: ShellWord): void {
    const src = this.src;
    const next = src[this.i + 1];
    word.hasExpansion = true;
    if (next === '(') {
      this.i += 1;
      const inner = this.balanced('(', ')').slice(1, -1);
      this.out.substitutions.push(inner.startsWith('(') && inner.endsWith(')') ? inner.slice(1, -1) : inner);
      word.value += `$(${inner})`;
    } else if (next === '{') {
      this.i += 1;
      const inner = this.balanced('{', '}');
      // `${x:-$(cmd)}` runs cmd: scan what is inside like a substitution.
      if (/[$`]/.test(inner)) this.out.substitutions.push(inner.slice(1, -1));
      word.value += `$${inner}`;
    } else if (next === "'") {
      let j = this.i + 2;
      while (j < src.length && src[j] !== "'") j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) throw new ParseFailure("unterminated $'...' quote");
      word.value += src.slice(this.i, j + 1);
      this.i = j + 1;
    } else if (next === '"') {
      // `$"..."` is a translated string: the same as "...".
      this.i += 1;
      this.readDoubleQuoted(word);
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

  /** Reads from an opening bracket at the cursor to its match; returns the text with both brackets. */
  private balanced(open: '(' | '{', close: ')' | '}'): string {
    const found = findClosingBracket(this.src, this.i, open, close);
    if (typeof found === 'string') throw new ParseFailure(found);
    const text = this.src.slice(this.i, found + 1);
    this.i = found + 1;
    return text;
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
