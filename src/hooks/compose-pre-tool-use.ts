import type { PreToolUseHookOutput } from './types.js';
import { argumentError, isArrayOf, isObjectValue } from '../errors/argument-error.js';

/** The combined verdict of several `PreToolUse` hooks. */
export interface ComposedPreToolUse {
  /** The strongest decision (deny > defer > ask > allow), or `undefined` when no hook decided. */
  decision: 'allow' | 'deny' | 'ask' | 'defer' | undefined;
  /** The reason given by the first hook that returned the winning decision. */
  reason: string | undefined;
  /** Whether any hook returned an `updatedInput`. */
  hasUpdatedInput: boolean;
  /**
   * The input after every rewrite, applied in order (each hook saw the previous one's output, so
   * the last rewrite is the composition).
   */
  updatedInput: unknown;
}

const STRENGTH = { allow: 1, ask: 2, defer: 3, deny: 4 } as const;

/**
 * Composes `PreToolUse` hook outputs: deny > defer > ask > allow, and the `updatedInput`s chained
 * in order.
 * @param outputs - hook outputs in run order.
 */
export function composePreToolUse(outputs: readonly PreToolUseHookOutput[]): ComposedPreToolUse {
  if (!isArrayOf(outputs, isObjectValue)) throw argumentError('composePreToolUse', 'outputs', 'an array of PreToolUse hook outputs (objects)', outputs);
  const composed: ComposedPreToolUse = { decision: undefined, reason: undefined, hasUpdatedInput: false, updatedInput: undefined };
  for (const output of outputs) {
    if (output.updatedInput !== undefined) {
      composed.hasUpdatedInput = true;
      composed.updatedInput = output.updatedInput;
    }
    const decision = output.decision;
    if (decision !== undefined && (composed.decision === undefined || STRENGTH[decision] > STRENGTH[composed.decision])) {
      composed.decision = decision;
      composed.reason = output.reason;
    }
  }
  return composed;
}
