import type { PermissionMode } from '../types/permission.js';
import type { ToolAgentContext, ToolStateStore } from '../tools/types.js';

/** What the live fields read: the agent's current mode and directories. */
export interface ToolAgentContextSource {
  readonly sessionId: string;
  readonly agentId: string | undefined;
  readonly toolState: ToolStateStore;
  readonly mode: PermissionMode;
  readonly directories: readonly string[];
}

const SOURCE = Symbol('tool agent context source');

interface WithSource {
  readonly [SOURCE]: ToolAgentContextSource;
}

/**
 * The live fields, as accessors shared by every context. Not an object literal with getters per
 * agent: V8 gives such an object a map of its own holding the getter closures, and maps live in
 * the old generation, so the closures, the agent and all its garbage would outlive every
 * young-generation GC. Accessors defined with the same functions share one map.
 */
const LIVE_FIELDS: PropertyDescriptorMap = {
  permissionMode: {
    enumerable: true,
    get(this: WithSource) {
      return this[SOURCE].mode;
    },
  },
  directories: {
    enumerable: true,
    get(this: WithSource) {
      return this[SOURCE].directories;
    },
  },
};

/**
 * The context a tool call is given about its agent: one object per agent, whose
 * `permissionMode` and `directories` read the agent's current values (own enumerable
 * properties, so a spread or `JSON.stringify` of it includes them).
 */
export function createToolAgentContext(source: ToolAgentContextSource): ToolAgentContext {
  const context = { sessionId: source.sessionId, agentId: source.agentId, toolState: source.toolState };
  Object.defineProperty(context, SOURCE, { value: source });
  Object.defineProperties(context, LIVE_FIELDS);
  return context as unknown as ToolAgentContext;
}
