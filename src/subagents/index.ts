export { BUILTIN_AGENTS, type AgentDefinition } from './agent-definition.js';
export { createAgentTools, newAgentId, type AgentToolSettings } from './agent-tool.js';
export { assertAgentToolsExist } from './assert-agent-tools-exist.js';
export { buildSubagentCore, subagentToolNames, type SubagentSetup } from './build-subagent-core.js';
export { runSubagent } from './run-subagent.js';
export { BACKGROUND_TASKS_KEY, settleStoppedBackgroundTasks } from './background-task.js';
export { subagentLimiterOf } from './subagent-limiter.js';
