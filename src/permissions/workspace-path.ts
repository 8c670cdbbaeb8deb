/**
 * Lexical path handling for rule matching, with no `node:path` (the core runs anywhere).
 * Paths are compared with `/` separators; `.` and `..` segments are resolved.
 */

/** Whether `path` (already using `/`) is absolute: `/x` or a drive letter `C:/x`. */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:\//.test(path);
}

/** A first segment that names a home directory (`~`, `~alice`), as shells and the workspace tools read it. */
const HOME_SEGMENT = /^~[A-Za-z0-9._-]*$/;

/**
 * Whether `path` starts at a home directory (`~`, `~/x`, `~alice/x`): the workspace tools read
 * `~/x` in the user's home, so it is neither relative to the workspace nor known here.
 */
export function isHomePath(path: string): boolean {
  const [first, ...rest] = path.replace(/\\/g, '/').split('/');
  // A lone `~name` is more likely a file (`~notes.md`) than a user's home.
  return first === '~' || (rest.length > 0 && HOME_SEGMENT.test(first!));
}

/**
 * Normalizes a path lexically: `\` becomes `/`, repeated separators collapse, `.` segments go,
 * `..` segments cancel the previous one (leading `..` of a relative path stay). A trailing
 * separator is dropped. The empty path and `.` become `.`. A leading home segment (`~`) is a
 * root that `..` does not cancel: `~/../x` stays as it is (it is not `x`).
 */
export function normalizePath(path: string): string {
  return normalizeSlashed(path.replace(/\\/g, '/'));
}

/** {@link normalizePath} of a path whose separators are `/` only (a `\\` in it is a character of a name). */
function normalizeSlashed(slashed: string): string {
  const absolute = isAbsolutePath(slashed);
  const home = !absolute && isHomePath(slashed) ? slashed.split('/')[0]! : undefined;
  const root = home !== undefined ? `${home}/` : !absolute ? '' : slashed.startsWith('/') ? '/' : `${slashed.slice(0, 2)}/`;
  const segments: string[] = [];
  for (const segment of slashed.slice(home !== undefined ? home.length : root.length).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
      else if (!absolute) segments.push('..');
      continue;
    }
    segments.push(segment);
  }
  if (home !== undefined && segments.length === 0) return home;
  const joined = root + segments.join('/');
  return joined === '' ? '.' : joined;
}

/** A path as rules see it: relative to the workspace when inside it, and absolute when known. */
export interface WorkspacePath {
  /** Relative to `cwd` when the path is inside it; otherwise the normalized path as given (`~/x` for a home path). */
  relative: string;
  /** Whether `relative` lies inside the workspace (relative, not starting with `..` or `~`). */
  insideWorkspace: boolean;
  /** Whether the path starts at a home directory (`~/x`): outside the workspace, absolute path unknown here. */
  home: boolean;
  /** The absolute path, when the path is absolute or `cwd` is known. */
  absolute: string | undefined;
}

/**
 * Locates `path` relative to the workspace root `cwd`. Without `cwd` the path is used as given
 * (normalized): a relative path counts as inside the workspace, an absolute one as outside. A
 * path with a `\\` is inside only when it is inside with `\\` read as a separator (Windows) and
 * as a character of a name (POSIX).
 * @param path - the path from the tool input.
 * @param cwd - the workspace root (absolute), when the agent has one.
 */
export function toWorkspacePath(path: string, cwd: string | undefined): WorkspacePath {
  const located = locate(normalizePath(path), cwd);
  // Where `\\` is no separator (POSIX: the workspace tools there read `a\\b/../../x` as `../x`, the
  // name `a\\b` being one folder), a path is inside only if it is inside read either way.
  if (located.insideWorkspace && path.includes('\\') && !locate(normalizeSlashed(path), cwd).insideWorkspace) return { ...located, insideWorkspace: false };
  return located;
}

function locate(normalized: string, cwd: string | undefined): WorkspacePath {
  // `~/x` is the home directory's, not a folder of the workspace named `~`: the workspace tools
  // read it there. Where home is, the core does not know (no node:os).
  if (isHomePath(normalized)) return { relative: normalized, insideWorkspace: false, absolute: undefined, home: true };
  const root = cwd === undefined ? undefined : normalizePath(cwd);
  if (isAbsolutePath(normalized)) {
    if (root !== undefined && isAbsolutePath(root)) {
      if (normalized === root) return { relative: '.', insideWorkspace: true, absolute: normalized, home: false };
      const prefix = root.endsWith('/') ? root : `${root}/`;
      if (normalized.startsWith(prefix)) {
        return { relative: normalized.slice(prefix.length), insideWorkspace: true, absolute: normalized, home: false };
      }
    }
    return { relative: normalized, insideWorkspace: false, absolute: normalized, home: false };
  }
  const insideWorkspace = normalized !== '..' && !normalized.startsWith('../');
  const absolute = root !== undefined && isAbsolutePath(root) ? normalizePath(`${root}/${normalized}`) : undefined;
  return { relative: normalized, insideWorkspace, absolute, home: false };
}
