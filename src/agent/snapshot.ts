import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { Message } from '../model/messages.js';
import type { PermissionMode, PermissionRules } from '../permissions/types.js';
import type { Todo } from '../todos/types.js';
import type { OpenBatch } from '../loop/open-batch.js';

/** The snapshot format version this build writes. */
export const SNAPSHOT_SCHEMA_VERSION = 1;
/** The snapshot format versions this build reads. */
export const SUPPORTED_SNAPSHOT_VERSIONS: readonly number[] = [1];

/**
 * Everything needed to continue a session in any process: plain JSON. Produced by
 * `agent.snapshot()`, consumed by `createAgent({ ...options, resume: snapshot })`.
 */
export interface AgentSnapshot {
  $schemaVersion: number;
  sessionId: string;
  agentId?: string;
  messages: Message[];
  permissionMode: PermissionMode;
  /** The mode to restore when a plan is approved. */
  prePlanMode?: PermissionMode;
  todos: Todo[];
  /** The session's plan slug, once drawn. */
  planSlug?: string;
  /** The approved plan, if any. */
  plan?: { name: string; text: string };
  /** Rules added during the session (on top of those passed as options). */
  sessionRules: Required<PermissionRules>;
  /** Text blocks waiting to be added to the next user message (mode reminders). */
  pendingReminders: string[];
  /** The tool calls of the last assistant message not all answered yet (pending approvals live here). */
  openBatch?: OpenBatch;
  /** Per-agent tool state (e.g. which files were read). */
  toolState: Record<string, unknown>;
}

/**
 * Checks a snapshot's shape and version before resuming from it.
 * @throws UnsupportedSchemaVersionError for an unknown `$schemaVersion`.
 * @throws ConfigurationError for something that is not a snapshot.
 */
export function readSnapshot(value: unknown): AgentSnapshot {
  if (typeof value === 'string') {
    throw new ConfigurationError('resume was given a string; pass the snapshot object (JSON.parse it first) or a session id together with a `store`.');
  }
  if (typeof value !== 'object' || value === null) {
    throw new ConfigurationError(`resume must be a snapshot from agent.snapshot(), got ${value === null ? 'null' : typeof value}.`);
  }
  const snapshot = value as Partial<AgentSnapshot>;
  if (!SUPPORTED_SNAPSHOT_VERSIONS.includes(snapshot.$schemaVersion as number)) {
    throw new UnsupportedSchemaVersionError('an agent snapshot', snapshot.$schemaVersion, SUPPORTED_SNAPSHOT_VERSIONS);
  }
  if (typeof snapshot.sessionId !== 'string' || !Array.isArray(snapshot.messages)) {
    throw new ConfigurationError('resume: the snapshot lacks `sessionId` or `messages`; pass the object agent.snapshot() returned, unchanged.');
  }
  return snapshot as AgentSnapshot;
}
