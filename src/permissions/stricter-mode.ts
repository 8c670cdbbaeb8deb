import type { PermissionMode } from '../types/permission.js';

/**
 * How much each mode lets run without asking, as a partial order: `plan` runs only what reads,
 * `dontAsk` runs only what rules allow, `default` also asks, `auto` and `acceptEdits` each let
 * more through (different things: neither is below the other), `bypassPermissions` everything.
 */
const LEVEL: Record<PermissionMode, number> = { plan: 0, dontAsk: 1, default: 2, auto: 3, acceptEdits: 3, bypassPermissions: 4 };

/**
 * The stricter of two modes: the one that lets no more run than either. Two modes that let
 * different things through (`auto` and `acceptEdits`) meet at `default`.
 */
export function stricterMode(a: PermissionMode, b: PermissionMode): PermissionMode {
  if (a === b) return a;
  if (LEVEL[a] === LEVEL[b]) return 'default';
  return LEVEL[a] < LEVEL[b] ? a : b;
}

/**
 * A subagent's mode: the stricter of its parent's and its definition's. `bypassPermissions` is
 * never passed on: a subagent whose modes would bypass runs in `default` and asks.
 */
export function subagentMode(parent: PermissionMode, definition: PermissionMode | undefined): PermissionMode {
  const mode = stricterMode(parent, definition ?? parent);
  return mode === 'bypassPermissions' ? 'default' : mode;
}
