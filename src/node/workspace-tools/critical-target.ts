import path from 'node:path';
import type { ShellWord } from './parse-shell-command.js';

const SYSTEM_DIRECTORIES = new Set([
  '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/run',
  '/sbin', '/srv', '/sys', '/usr', '/var', '/System', '/Users', '/Library', '/Applications', '/private', '/Volumes',
]);
const HOME = '/\u0000home';
const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
/** Most alternatives a brace list may produce before the target counts as uncheckable. */
const MAX_ALTERNATIVES = 64;

/** Decodes the body of a bash `$'...'` string; `undefined` for escapes it does not know. */
function decodeAnsiCBody(body: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) return undefined;
    if (next in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[next];
      i++;
      continue;
    }
    const hex = /^(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3})/.exec(body.slice(i + 1));
    if (!hex) return undefined;
    const code = hex[1]!.startsWith('x') || hex[1]!.startsWith('u') || hex[1]!.startsWith('U') ? parseInt(hex[1]!.slice(1), 16) : parseInt(hex[1]!, 8);
    if (code === 0 || code > 0x10ffff) return undefined;
    out += String.fromCodePoint(code);
    i += hex[1]!.length;
  }
  return out;
}

/**
 * Replaces every `$'...'` in a word value (kept as written by the parser) by its decoded text.
 * @returns the decoded value and whether anything else is still expanded at run time.
 */
export function decodeWord(word: ShellWord): ShellWord {
  if (!word.hasExpansion || !word.value.includes("$'")) return word;
  let undecodable = false;
  const value = word.value.replace(/\$'((?:[^'\\]|\\.)*)'/g, (whole, body: string) => {
    const decoded = decodeAnsiCBody(body);
    if (decoded === undefined) undecodable = true;
    return decoded ?? whole;
  });
  const stillExpanded = undecodable || /[$`]/.test(value.replace(/\$'((?:[^'\\]|\\.)*)'/g, ''));
  return { ...word, value, hasExpansion: stillExpanded };
}

/** `/`, `/*`, `~`, `~user`, `$HOME`, or a top-level system directory, however spelled (a literal path). */
export function isCriticalPath(value: string, tilde = value.startsWith('~')): boolean {
  let target = tilde ? value.replace(/^~[^/]*/, HOME) : value;
  target = target.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, HOME);
  if (!target.startsWith('/')) return false;
  target = path.posix.normalize(target);
  while (target.length > 1 && (target.endsWith('/') || target.endsWith('/*') || target.endsWith('/.'))) {
    target = target.endsWith('/') ? target.slice(0, -1) : target.slice(0, -2) || '/';
  }
  return target === '/' || target === '/*' || target === HOME || SYSTEM_DIRECTORIES.has(target);
}

/** Bash brace expansion of comma lists; `undefined` when there are too many or a sequence (`{1..9}`). */
function expandBraces(value: string): string[] | undefined {
  if (/\{[^{}]*\.\.[^{}]*\}/.test(value)) return undefined;
  const match = /\{([^{}]*,[^{}]*)\}/.exec(value);
  if (!match) return [value];
  const out: string[] = [];
  for (const part of match[1]!.split(',')) {
    const expanded = expandBraces(value.slice(0, match.index) + part + value.slice(match.index + match[0].length));
    if (!expanded || out.length + expanded.length > MAX_ALTERNATIVES) return undefined;
    out.push(...expanded);
  }
  return out;
}

/** Length of the expansion at the start of `value` (`$x`, `${...}`, `$(...)`, `` `...` ``), or the whole value when unsure. */
function leadingExpansionLength(value: string): number {
  const simple = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(value);
  if (simple) return simple[0].length;
  const pairs: Record<string, string> = { '${': '}', '$(': ')', '`': '`' };
  const opener = value.startsWith('`') ? '`' : value.slice(0, 2);
  const closer = pairs[opener];
  if (closer === undefined) return value.length;
  let depth = 0;
  for (let i = opener.length - 1; i < value.length; i++) {
    if (closer === '`') {
      if (i > 0 && value[i] === '`') return i + 1;
      continue;
    }
    if (value[i] === opener[1]) depth++;
    else if (value[i] === closer && --depth === 0) return i + 1;
  }
  return value.length;
}

const UNKNOWN = /[*?[\]{}$`]/;
const meaningful = (rest: string) => rest.split('/').filter((segment) => segment !== '' && segment !== '.');

/** An expanded or globbed target that could be `/`, a system directory, or a home directory. */
function couldBeCritical(value: string, tilde: boolean): boolean {
  if (value.split('/').includes('..')) return true;
  if (tilde || value.startsWith('$') || value.startsWith('`')) {
    const rest = tilde ? value.replace(/^~[^/]*/, '') : value.slice(leadingExpansionLength(value));
    const [first] = meaningful(rest);
    return first === undefined || UNKNOWN.test(first);
  }
  if (!value.startsWith('/')) return false;
  const [first, second] = meaningful(value);
  if (first === undefined || UNKNOWN.test(first)) return true;
  return SYSTEM_DIRECTORIES.has(`/${first}`) && (second === undefined || UNKNOWN.test(second));
}

/**
 * Whether a target of a recursive command may be `/`, `~` (any `~user`), `$HOME` or a top-level
 * system directory: literal paths exactly; expanded or globbed ones when they could be (a
 * variable with nothing fixed after it, a glob in the first component, `~/{,}`, `/u[s]r`, ...).
 */
export function isCriticalTarget(word: ShellWord): boolean {
  const decoded = decodeWord(word);
  if (!decoded.hasExpansion && !decoded.hasGlob) return isCriticalPath(decoded.value, decoded.tilde === true);
  const alternatives = decoded.hasGlob ? expandBraces(decoded.value) : [decoded.value];
  if (!alternatives) return true;
  return alternatives.some((value) => isCriticalPath(value, decoded.tilde === true) || couldBeCritical(value, decoded.tilde === true));
}

/** How a critical target is named in a refusal: the word, plus a note when it is only known at run time. */
export function targetLabel(word: ShellWord): string {
  const decoded = decodeWord(word);
  return decoded.hasExpansion || decoded.hasGlob ? `${decoded.value} (expanded at run time; it may be / or a home directory)` : decoded.value;
}
