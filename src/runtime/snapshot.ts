import { ConfigurationError } from '../errors/configuration-error.js';
import { SnapshotInvalidError } from '../errors/snapshot-invalid-error.js';
import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import { jsonBoundsProblem } from '../history/json-bounds.js';
import { repairHistory } from '../history/repair-history.js';
import type { Message } from '../model/messages.js';
import type { PermissionMode } from '../types/permission.js';
import type { BatchCall, SessionState } from '../state/index.js';
import { validateSessionState } from '../state/validate-session-state.js';
import { verifySnapshotSignature, type SnapshotKeys } from './snapshot-signature.js';

/** The snapshot format version this build writes. */
export const SNAPSHOT_SCHEMA_VERSION = 2;
/** The snapshot format versions this build reads. */
export const SUPPORTED_SNAPSHOT_VERSIONS: readonly number[] = [1, 2];

/** How deep and how large a snapshot may be before it is read at all. */
const SNAPSHOT_BOUNDS = { maxDepth: 160, maxChars: 512_000_000, maxNodes: 50_000_000 };

/**
 * Everything needed to continue a session in any process: the session state (plain JSON) and its
 * revision. Produced by `agent.snapshot()`, consumed by `createAgent({ ...options, resume })`.
 * A snapshot is input, not trust: it is validated field by field, calls it shows as allowed never
 * run on its word, and with `snapshotKey` it is signed (`$signature`) and refused when altered.
 */
export interface AgentSnapshot extends SessionState {
  $schemaVersion: number;
  /** The session's revision when the snapshot was taken (the `seq` of its last entry). */
  revision: number;
  /** `hmac-sha256:<hex>` over the rest, when the agent has a `snapshotKey`. */
  $signature?: string;
}

/** A snapshot read back: the state to continue from and its revision. */
export interface ReadSnapshot {
  state: SessionState;
  revision: number;
  /** What was repaired in a snapshot written by an older version. */
  repairs: string[];
}

/**
 * Checks and reads a snapshot before resuming from it: its size and depth, its version, its
 * signature (with `snapshotKey`), and every field of the state it carries (upgrading version 1).
 * @throws UnsupportedSchemaVersionError for an unknown `$schemaVersion`.
 * @throws SnapshotInvalidError naming the path and the problem, or a signature that is missing or wrong.
 * @throws ConfigurationError for something that is not a snapshot at all (a string, null).
 */
export function readSnapshot(value: unknown, options: { snapshotKey?: SnapshotKeys } = {}): ReadSnapshot {
  if (typeof value === 'string') {
    throw new ConfigurationError('resume was given a string; pass the snapshot object (JSON.parse it first) or a session id together with a `store`.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigurationError(`resume must be a snapshot from agent.snapshot(), got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.`);
  }
  const bounds = jsonBoundsProblem(value, SNAPSHOT_BOUNDS);
  if (bounds) throw new SnapshotInvalidError('', `it is ${bounds}`);
  const snapshot = value as Record<string, unknown>;
  if (!SUPPORTED_SNAPSHOT_VERSIONS.includes(snapshot.$schemaVersion as number)) {
    throw new UnsupportedSchemaVersionError('an agent snapshot', snapshot.$schemaVersion, SUPPORTED_SNAPSHOT_VERSIONS);
  }
  if (options.snapshotKey !== undefined && !verifySnapshotSignature(snapshot, options.snapshotKey)) {
    throw new SnapshotInvalidError(
      '$signature',
      snapshot.$signature === undefined ? 'the snapshot is not signed, and this agent has a snapshotKey' : 'the signature does not match: the snapshot was altered, or signed with another key',
    );
  }
  // A copy as JSON: what the bounds above checked. (structuredClone would also copy what JSON
  // leaves out, such as named properties of an array, which no bound covers: a tampered snapshot
  // nested them deep enough to overflow the stack.)
  let copy: Record<string, unknown>;
  try {
    copy = JSON.parse(JSON.stringify(snapshot)) as Record<string, unknown>;
  } catch (error) {
    throw new SnapshotInvalidError('', `it cannot be copied as JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const { state, repairs } = snapshot.$schemaVersion === 1 ? upgradeVersion1(copy) : { state: withoutEnvelope(copy), repairs: [] };
  validateSessionState(state);
  const revision = snapshot.$schemaVersion === 1 ? 0 : snapshot.revision;
  if (typeof revision !== 'number' || !Number.isInteger(revision) || revision < 0) {
    throw new SnapshotInvalidError('revision', `expected a whole number of 0 or more, got ${JSON.stringify(revision)}`);
  }
  return { state, revision, repairs };
}

function withoutEnvelope(snapshot: Record<string, unknown>): SessionState {
  const { $schemaVersion: _version, revision: _revision, $signature: _signature, ...state } = snapshot;
  return state as unknown as SessionState;
}

/** A version 1 call, as it was written. */
interface CallVersion1 {
  toolUseId: string;
  toolName: string;
  state: string;
  input?: unknown;
  approval?: { input?: unknown };
  result?: unknown;
  planTargetMode?: PermissionMode;
}

/**
 * Version 1 snapshots kept each call's raw input and a pending call's input twice, had no usage
 * per message, and could hold blank text written before blank text was dropped.
 */
function upgradeVersion1(snapshot: Record<string, unknown>): { state: SessionState; repairs: string[] } {
  const state = withoutEnvelope(snapshot) as unknown as Record<string, unknown>;
  const repairs: string[] = [];
  if (Array.isArray(state.messages)) {
    const repaired = repairHistory(state.messages);
    if (repaired.changes.length > 0) {
      repairs.push(...repaired.changes);
      state.messages = repaired.messages;
    }
    state.messageUsage = (state.messages as Message[]).map(() => null);
  }
  const batch = state.openBatch as { calls?: CallVersion1[] } | undefined;
  if (batch && Array.isArray(batch.calls)) {
    state.openBatch = {
      calls: batch.calls.map((call): BatchCall => {
        const upgraded: BatchCall = { toolUseId: call.toolUseId, toolName: call.toolName, state: (call.state === 'running' ? 'allowed' : call.state) as BatchCall['state'] };
        if (upgraded.state === 'allowed') {
          upgraded.input = call.input;
          if (call.planTargetMode) upgraded.heldUpdates = [{ type: 'setMode', mode: call.planTargetMode, destination: 'session' }];
        }
        if (upgraded.state === 'deferred') upgraded.approval = call.approval as BatchCall['approval'];
        if (upgraded.state === 'done') upgraded.result = call.result as BatchCall['result'];
        return upgraded;
      }),
    };
  }
  return { state: state as unknown as SessionState, repairs };
}
