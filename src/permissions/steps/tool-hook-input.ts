import type { PipelineState } from './pipeline-state.js';

/** The fields every tool hook input shares (`PreToolUse`, `PermissionRequest`), from the pipeline's state. */
export function toolHookInput(state: PipelineState) {
  const { tool, toolUseId, agent, mode } = state.args;
  const agentId = state.args.agentId ?? agent.agentId;
  return {
    sessionId: agent.sessionId,
    ...(agentId === undefined ? {} : { agentId }),
    toolName: tool.name,
    toolInput: state.input,
    toolUseId,
    permissionMode: mode,
  };
}
