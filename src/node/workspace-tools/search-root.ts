import fs from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { ToolAgentContext } from '../../tools/types.js';
import { authorizePath } from './path-access.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';

/** An authorized place to search: a directory or a single file. */
export type SearchRoot =
  | { ok: true; real: string; stat: Stats; ignoreRoot: string }
  | { ok: false; message: string };

/**
 * Authorizes the directory (or file) Glob or Grep searches, at execute time, and finds the
 * workspace root whose `.gitignore` files apply to it.
 */
export async function resolveSearchRoot(
  boundary: WorkspaceBoundary,
  input: string,
  toolUseId: string,
  agent: ToolAgentContext,
): Promise<SearchRoot> {
  const authorization = await authorizePath({ boundary, input, toolUseId, agent });
  if (!authorization.ok) return authorization;
  const { real } = authorization.resolved;
  let stat: Stats;
  try {
    stat = await fs.stat(real);
  } catch {
    return { ok: false, message: `Path does not exist: ${input}` };
  }
  return { ok: true, real, stat, ignoreRoot: boundary.rootOf(real) ?? real };
}
