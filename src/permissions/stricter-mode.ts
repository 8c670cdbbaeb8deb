import type { PermissionMode } from '../types/permission.js';

/** Modes in order of how little they let run without asking; each lets run no more than the ones after it. */
const CHAIN: readonly PermissionMode[] = ['plan', 'dontAsk', 'default', 'acceptEdits', 'bypassPermissions'];

/**
 * The stricter of two modes: one that lets no more run without asking than either. `plan` runs
 * only what reads, `dontAsk` only what rules allow, `default` asks, `acceptEdits` also lets edits
 * through, `bypassPermissions` everything but what deny and ask rules stop. `auto` is beside that
 * chain, not on it: its classifier may answer what an ask rule asks (which `bypassPermissions`
 * does not), so `auto` meets any mode above `default` at `default`.
 */
export function stricterMode(a: PermissionMode, b: PermissionMode): PermissionMode {
  if (a === b) return a;
  if (a === 'auto' || b === 'auto') {
    const other = a === 'auto' ? b : a;
    return CHAIN.indexOf(other) <= CHAIN.indexOf('default') ? other : 'default';
  }
  return CHAIN.indexOf(a) < CHAIN.indexOf(b) ? a : b;
}

/**
 * A subagent's mode: the stricter of its parent's and its definition's. `bypassPermissions` is
 * never passed on: a subagent whose modes would bypass runs in `default` and asks.
 */
export function subagentMode(parent: PermissionMode, definition: PermissionMode | undefined): PermissionMode {
  const mode = stricterMode(parent, definition ?? parent);
  return mode === 'bypassPermissions' ? 'default' : mode;
}
