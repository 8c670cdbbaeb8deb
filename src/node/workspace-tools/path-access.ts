import path from 'node:path';
import type { ToolPermissionCheck } from '../../types/permission.js';
import type { ToolAgentContext } from '../../tools/types.js';
import { hasGitSegment, protectedWriteReason } from './protected-write.js';
import { recordOutsideCheck, takeOutsideCheck } from './tool-state-records.js';
import type { ResolvedPath, WorkspaceBoundary } from './workspace-boundary.js';

/** The argument of {@link checkPathPermission}. */
export interface PathPermissionArgs {
  boundary: WorkspaceBoundary;
  /** The tool asking, e.g. `Write`; used in the message and the suggested rule. */
  toolName: string;
  /** What the call does to the path, e.g. `writes`. */
  verb: string;
  /** The path as the model gave it. */
  input: string;
  /** The path is a directory (Glob, Grep): the suggested rule covers it rather than its parent. */
  isDirectory?: boolean;
  /**
   * The call changes the file: inside the workspace, a path in a `.git` directory or a file with
   * several hard links is asked too (see {@link protectedWriteReason}).
   * @default false
   */
  writes?: boolean;
  toolUseId: string;
  agent: ToolAgentContext;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The `checkPermissions` of the file tools: no opinion inside the workspace (except that a write
 * into `.git`, through a hard link or into a read-only directory asks); outside it, ask the host
 * with `blockedPath` set, and
 * remember (in tool state, by `toolUseId`) which real path was asked about so that `execute` can
 * tell an approved path from one swapped in later.
 */
export async function checkPathPermission(args: PathPermissionArgs): Promise<ToolPermissionCheck> {
  const { boundary, toolName, verb } = args;
  let resolved: ResolvedPath;
  try {
    resolved = await boundary.resolve(args.input);
  } catch {
    // Unresolvable now (a link loop, no permission): execute resolves again and fails closed.
    return { behavior: 'passthrough' };
  }
  // A read-only directory (a skill's folder) is read without asking.
  if (!args.writes && resolved.readable && !resolved.inside) return { behavior: 'passthrough' };
  const readOnlyDirectory = args.writes && resolved.inside ? boundary.readOnlyDirectoryOf(resolved.real) : undefined;
  if (readOnlyDirectory !== undefined) {
    recordOutsideCheck(args.agent.toolState, args.toolUseId, resolved.real);
    // Not answerable by an allow rule like Edit(**): the host declared the folder read-only.
    return {
      behavior: 'ask',
      blockedPath: resolved.real,
      message: `${toolName} ${verb} ${resolved.real}, in ${readOnlyDirectory}, a read-only directory of the workspace (readOnlyDirectories): it is read without asking, never written without asking.`,
      suggestions: [],
      safety: true,
    };
  }
  if (resolved.inside) {
    const reason = args.writes ? await protectedWriteReason(toolName, resolved) : undefined;
    if (reason === undefined) return { behavior: 'passthrough' };
    recordOutsideCheck(args.agent.toolState, args.toolUseId, resolved.real);
    // Not answerable by an allow rule like Edit(**): a write into .git or through a hard link.
    return { behavior: 'ask', message: reason, suggestions: [], safety: true };
  }
  recordOutsideCheck(args.agent.toolState, args.toolUseId, resolved.real);
  const via = resolved.real === resolved.lexical ? '' : ` (through a symbolic link: ${resolved.lexical})`;
  // "Always allow" for an outside folder: an absolute glob (relative allow globs never reach
  // outside the workspace), for the path as written and, when a link was followed, the real one.
  const folder = (target: string) => (args.isDirectory ? target : path.dirname(target)).split(path.sep).join('/');
  const rules = [...new Set([folder(resolved.lexical), folder(resolved.real)])].map((directory) => `${toolName}(${directory.replace(/\/$/, '')}/**)`);
  return {
    behavior: 'ask',
    blockedPath: resolved.real,
    message: `${toolName} ${verb} ${resolved.real}${via}, which is outside the workspace (${boundary.roots.join(', ')}).`,
    suggestions: [{ type: 'addRules', behavior: 'allow', rules, destination: 'session' }],
  };
}

/** The argument of {@link authorizePath}. */
export interface AuthorizePathArgs {
  boundary: WorkspaceBoundary;
  input: string;
  /**
   * The call changes the file: a path that leads into a `.git` directory only through a symbolic
   * link is refused unless it is the one asked about.
   * @default false
   */
  writes?: boolean;
  toolUseId: string;
  agent: ToolAgentContext;
}

/** The outcome of {@link authorizePath}. */
export type PathAuthorization = { ok: true; resolved: ResolvedPath } | { ok: false; message: string };

/**
 * Re-resolves a path at execute time and decides whether the call may touch it. Inside the
 * workspace: yes (for a write, not in a read-only directory). Outside (or a write into a
 * read-only directory): only when
 * - the permission mode is `bypassPermissions`, or
 * - `checkPermissions` asked the host about this very real path for this call, or
 * - the path involves no symbolic link (its lexical and real forms agree), so whatever allowed
 *   the call (a rule, a hook, the host) saw that it was outside.
 * A path that was inside (or elsewhere) when checked and now leads outside through a symbolic
 * link is refused; so is, for a write, one that leads into a `.git` directory through a link.
 */
export async function authorizePath(args: AuthorizePathArgs): Promise<PathAuthorization> {
  const checked = takeOutsideCheck(args.agent.toolState, args.toolUseId);
  let resolved: ResolvedPath;
  try {
    resolved = await args.boundary.resolve(args.input);
  } catch (error) {
    return { ok: false, message: `Cannot resolve ${args.input}: ${describeError(error)}` };
  }
  if (args.agent.permissionMode === 'bypassPermissions') return { ok: true, resolved };
  const intoGit = args.writes === true && hasGitSegment(resolved.real) && !hasGitSegment(resolved.lexical);
  if (intoGit && checked !== resolved.real) {
    return { ok: false, message: `Refused: ${args.input} leads into a git directory (${resolved.real}) through a symbolic link, and that location was not the one approved for this call.` };
  }
  if (args.writes === true ? resolved.writable : resolved.readable) return { ok: true, resolved };
  if (checked === resolved.real || resolved.lexical === resolved.real) return { ok: true, resolved };
  return {
    ok: false,
    message:
      `Refused: ${args.input} now leads to ${resolved.real}, outside the workspace, through a symbolic link, ` +
      `and that location was not the one approved for this call. Check the link and call the tool again.`,
  };
}
