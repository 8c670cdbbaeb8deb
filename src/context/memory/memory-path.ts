/** The directory every memory path lives under, as the model writes it. */
export const MEMORY_ROOT = '/memories';

/** The longest memory path accepted, in UTF-8 bytes. */
export const MAX_MEMORY_PATH_BYTES = 1024;
/** The longest name of one file or directory, in UTF-8 bytes (what file systems allow). */
export const MAX_MEMORY_NAME_BYTES = 255;

/** A memory path, checked: the names under the memory root. */
export interface MemoryPath {
  /** The names under the root, e.g. `['projects', 'notes.md']`; empty for the root itself. */
  segments: readonly string[];
  /** The path relative to the root, `/`-separated (`''` for the root): what a `MemoryStore` takes. */
  relative: string;
  /** The path as the model writes it, normalized: `/memories/projects/notes.md`. */
  display: string;
}

const reservedWindowsNames = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const encoder = new TextEncoder();

/**
 * Checks a path the model gave the memory tool. It must be `/memories` or lie under it, and may
 * never leave it, whatever store is behind: no `..` or `.`, no empty names, no backslashes or
 * drive letters, no NUL or control characters, no percent-encoded bytes, no name that normalizes
 * (NFKC) to `.`, `..` or a separator, no leading dot (hidden files), no trailing dot or space,
 * no Windows device names or characters Windows refuses, at most 255 bytes a name and 1024 in all.
 * One trailing slash is allowed.
 * @param path - the path as given.
 * @returns the checked path, or the problem as a sentence for the model.
 */
export function parseMemoryPath(path: unknown): MemoryPath | { problem: string } {
  if (typeof path !== 'string') return { problem: `A memory path must be a string, got ${typeof path}.` };
  const shown = JSON.stringify(path.length > 120 ? `${path.slice(0, 120)}…` : path);
  const refuse = (why: string) => ({ problem: `The path ${shown} is not allowed: ${why}. Use a path under ${MEMORY_ROOT}, e.g. ${MEMORY_ROOT}/notes.md.` });
  if (encoder.encode(path).length > MAX_MEMORY_PATH_BYTES) return refuse(`it is longer than ${MAX_MEMORY_PATH_BYTES} bytes`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return refuse('it contains a control character');
  if (path.includes('\\')) return refuse('it contains a backslash; separate names with "/"');
  if (/%[0-9a-f]{2}/i.test(path)) return refuse('it contains a percent-encoded character');
  if (path !== MEMORY_ROOT && !path.startsWith(`${MEMORY_ROOT}/`)) return refuse(`it does not start with ${MEMORY_ROOT}`);
  const rest = path.slice(MEMORY_ROOT.length + 1).replace(/\/$/, '');
  const segments = rest === '' ? [] : rest.split('/');
  for (const name of segments) {
    const problem = nameProblem(name);
    if (problem) return refuse(problem);
  }
  const relative = segments.join('/');
  return { segments, relative, display: relative === '' ? MEMORY_ROOT : `${MEMORY_ROOT}/${relative}` };
}

function nameProblem(name: string): string | undefined {
  if (name === '') return 'it has an empty name (two slashes in a row)';
  const normalized = name.normalize('NFKC');
  if (name === '.' || name === '..' || normalized === '.' || normalized === '..') return 'it steps out with "." or ".."';
  if (/[/\\]/.test(normalized)) return `the name ${JSON.stringify(name)} holds a character that reads as a separator`;
  if (name.startsWith('.') || normalized.startsWith('.')) return `the name ${JSON.stringify(name)} starts with a dot (hidden names are not allowed)`;
  if (/[. ]$/.test(name)) return `the name ${JSON.stringify(name)} ends with a dot or a space`;
  if (/[<>:"|?*]/.test(name)) return `the name ${JSON.stringify(name)} holds one of < > : " | ? *`;
  if (reservedWindowsNames.test(name)) return `${JSON.stringify(name)} is a reserved device name`;
  if (encoder.encode(name).length > MAX_MEMORY_NAME_BYTES) return `a name is longer than ${MAX_MEMORY_NAME_BYTES} bytes`;
  return undefined;
}
