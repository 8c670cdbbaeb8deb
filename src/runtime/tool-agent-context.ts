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

/**
 * The context a tool call is given about its agent: one object per agent, whose
 * `permissionMode` and `directories` read the agent's current values. They are own enumerable
 * accessors (a spread or `JSON.stringify` of the context includes them), defined with the same
 * two functions for every context. Not an object literal with getters per agent: V8 gives such an
 * object a map of its own holding the getter closures, and maps live in the old generation, so
 * the closures, the agent and all its garbage would outlive every young-generation GC; accessors
 * defined with the same functions share one map. The agent itself is a private field, out of
 * reach of the tools that get the context.
 */
class LiveToolAgentContext {
  readonly #source: ToolAgentContextSource;
  readonly sessionId: string;
  readonly agentId: string | undefined;
  readonly toolState: ToolStateStore;

  static readonly #permissionMode: PropertyDescriptor = {
    enumerable: true,
    get(this: LiveToolAgentContext) {
      return this.#source.mode;
    },
  };
  static readonly #directories: PropertyDescriptor = {
    enumerable: true,
    get(this: LiveToolAgentContext) {
      return this.#source.directories;
    },
  };

  constructor(source: ToolAgentContextSource) {
    this.#source = source;
    this.sessionId = source.sessionId;
    this.agentId = source.agentId;
    this.toolState = source.toolState;
    // Two defineProperty calls: half the time of one defineProperties (a sixth of createAgent).
    Object.defineProperty(this, 'permissionMode', LiveToolAgentContext.#permissionMode);
    Object.defineProperty(this, 'directories', LiveToolAgentContext.#directories);
  }
}

/** The agent context for the tool calls of one agent (see `LiveToolAgentContext`). */
export function createToolAgentContext(source: ToolAgentContextSource): ToolAgentContext {
  return new LiveToolAgentContext(source) as unknown as ToolAgentContext;
}
