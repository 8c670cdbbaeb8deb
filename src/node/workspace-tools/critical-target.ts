import path from 'node:path';
import type { ShellWord } from '../../permissions/shell/index.js';
import { expandBraces } from './expand-shell-glob.js';

/** Top-level directories whose loss (or recursive change) breaks the system. */
const SYSTEM_DIRECTORIES = new Set([
  '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/proc', '/root', '/run',
  '/sbin', '/srv', '/sys', '/usr', '/var', '/snap', '/mnt', '/media', '/tmp', '/System', '/Users', '/Library',
  '/Applications', '/private', '/Volumes', '/nix', '/cores',
]);
/** System directories whose children are ordinary places to work (a project in /srv/app, scratch in /tmp/x). */
const WORK_ROOTS = new Set(['/home', '/Users', '/tmp', '/mnt', '/media', '/Volumes', '/opt', '/srv', '/private']);
/** Placeholder for "a home directory" once `~`, `~user` or `$HOME` is seen. */
const HOME = '/\u0000home';
const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
/** Most alternatives a brace list may produce before the target counts as uncheckable. */
const MAX_ALTERNATIVES = 64;

/**
 * Where relative targets are resolved and what counts as home: the directories the command may
 * be in (after `cd`), `undefined` standing for "unknown", and the home directory when known.
 */
export interface TargetContext {
  directories: ReadonlyArray<string | undefined>;
  home: string | undefined;
  /** The workspace roots: nothing inside them is critical. */
  workspace: readonly string[];
}

/** How much of the tree counts: `tree` also the second level below system directories (`/usr/lib`). */
export type CriticalLevel = 'root' | 'tree';

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

const within = (root: string, target: string) => target === root || target.startsWith(root.endsWith('/') ? root : `${root}/`);

/** Whether an absolute, literal path is `/`, a home directory or a system directory (at the level asked). */
export function isCriticalAbsolute(absolute: string, level: CriticalLevel, context: Pick<TargetContext, 'home' | 'workspace'>): boolean {
  let target = path.posix.normalize(absolute);
  // /proc/<pid>/root is the root directory by another name.
  target = target.replace(/^\/proc\/[^/]+\/root(?=\/|$)/, '') || '/';
  target = path.posix.normalize(target);
  while (target.length > 1 && (target.endsWith('/') || target.endsWith('/*') || target.endsWith('/.'))) {
    target = target.endsWith('/') ? target.slice(0, -1) : target.slice(0, -2) || '/';
  }
  if (target === '/' || target === '/*' || target === HOME) return true;
  if (context.home !== undefined && target === path.posix.normalize(context.home)) return true;
  if (target.startsWith(`${HOME}/`)) return false;
  if (context.workspace.some((root) => within(root, target))) return false;
  const segments = target.split('/').filter(Boolean);
  const top = `/${segments[0]}`;
  if (!SYSTEM_DIRECTORIES.has(top)) return false;
  if (segments.length === 1) return true;
  // A user's home: /home/alice, /Users/alice.
  if (segments.length === 2 && (top === '/home' || top === '/Users')) return true;
  return level === 'tree' && segments.length === 2 && !WORK_ROOTS.has(top);
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

/** An expanded or globbed absolute (or home-relative) target that could be `/`, a system directory, or a home directory. */
function couldBeCritical(value: string, tilde: boolean): boolean {
  if (value.split('/').includes('..')) return true;
  if (tilde || value.startsWith('$') || value.startsWith('`')) {
    const rest = tilde ? value.replace(/^~[^/]*/, '') : value.slice(leadingExpansionLength(value));
    const [first] = meaningful(rest);
    return first === undefined || UNKNOWN.test(first);
  }
  if (!value.startsWith('/')) return false;
  const [first, second] = meaningful(value.replace(/^\/proc\/[^/]+\/root(?=\/|$)/, ''));
  if (first === undefined || UNKNOWN.test(first)) return true;
  const top = `/${first}`;
  if (second !== undefined && !UNKNOWN.test(second)) return false;
  // A glob right below /home is any user's home; below /tmp or /srv just a place to work.
  return second === undefined ? SYSTEM_DIRECTORIES.has(top) : top === '/home' || top === '/Users' || (SYSTEM_DIRECTORIES.has(top) && !WORK_ROOTS.has(top));
}

/** One spelling of a target, resolved against one possible directory; `undefined` when it cannot be placed. */
function place(value: string, tilde: boolean, directory: string | undefined): string | undefined {
  if (tilde) return value.replace(/^~[^/]*/, HOME);
  const home = value.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, HOME);
  if (home !== value) return /[$`]/.test(home) ? undefined : home;
  if (value.startsWith('/')) return value;
  // An expansion at the start may be an absolute path: it cannot be placed.
  if (/^[$`]/.test(value)) return undefined;
  return directory === undefined ? undefined : path.posix.join(directory, value);
}

/**
 * Whether a target of a destructive command may be `/`, a home directory (`~`, `~user`, `$HOME`)
 * or a system directory: literal paths exactly, relative ones in every directory the command may
 * be in; expanded or globbed ones when they could be (a variable with nothing fixed after it, a
 * glob in the first component, `~/{,}`, `/u[s]r`, `*` in `/`, ...).
 */
export function isCriticalTarget(word: ShellWord, context: TargetContext, level: CriticalLevel = 'tree'): boolean {
  const decoded = decodeWord(word);
  const tilde = decoded.tilde === true;
  const alternatives = decoded.hasGlob ? expandBraces(decoded.value, MAX_ALTERNATIVES) : [decoded.value];
  if (!alternatives) return true;
  for (const value of alternatives) {
    for (const directory of context.directories) {
      const placed = place(value, tilde, directory);
      if (placed === undefined) {
        if (decoded.hasExpansion && couldBeCritical(value, tilde)) return true;
        continue;
      }
      const home = placed.startsWith(HOME);
      if ((decoded.hasExpansion || decoded.hasGlob) && couldBeCritical(home ? `~${placed.slice(HOME.length)}` : placed, home)) return true;
      if (isCriticalAbsolute(placed, level, context)) return true;
    }
  }
  return false;
}

/** How a critical target is named in a refusal: the word, plus a note when it is only known at run time. */
export function targetLabel(word: ShellWord): string {
  const decoded = decodeWord(word);
  return decoded.hasExpansion || decoded.hasGlob ? `${decoded.value} (expanded at run time; it may be / or a home directory)` : decoded.value;
}
