import type { PermissionRequestHookOutput } from './types.js';
import { argumentError, isArrayOf, isObjectValue } from '../errors/argument-error.js';

/** The combined answer of several `PermissionRequest` hooks. */
export interface ComposedPermissionRequest {
  /** `deny` if any hook denied, else `allow` if any allowed, else `undefined` (ask the host). */
  decision: 'allow' | 'deny' | undefined;
  /** For `deny`: the first denying hook's message. */
  message: string | undefined;
  /** Whether any hook returned an `updatedInput` (used only with `allow`). */
  hasUpdatedInput: boolean;
  /** The last `updatedInput` (each hook saw the previous rewrite). */
  updatedInput: unknown;
}

/**
 * Composes `PermissionRequest` hook outputs: deny > allow; rewrites chain in order.
 * @param outputs - hook outputs in run order.
 */
export function composePermissionRequest(outputs: readonly PermissionRequestHookOutput[]): ComposedPermissionRequest {
  if (!isArrayOf(outputs, isObjectValue)) throw argumentError('composePermissionRequest', 'outputs', 'an array of PermissionRequest hook outputs (objects)', outputs);
  const composed: ComposedPermissionRequest = { decision: undefined, message: undefined, hasUpdatedInput: false, updatedInput: undefined };
  for (const output of outputs) {
    if (output.decision === 'deny') {
      if (composed.decision !== 'deny') composed.message = output.message;
      composed.decision = 'deny';
    } else if (output.decision === 'allow') {
      if (composed.decision === undefined) composed.decision = 'allow';
    }
    if (output.updatedInput !== undefined) {
      composed.hasUpdatedInput = true;
      composed.updatedInput = output.updatedInput;
    }
  }
  return composed;
}
