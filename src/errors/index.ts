export { AgentHarnessError, type AgentHarnessErrorOptions } from './agent-harness-error.js';
export { ConfigurationError } from './configuration-error.js';
export { ToolInputError } from './tool-input-error.js';
export { ToolExecutionError } from './tool-execution-error.js';
export { ModelError, type ModelErrorOptions } from './model-error.js';
export { RunInProgressError } from './run-in-progress-error.js';
export { UnsupportedSchemaVersionError } from './unsupported-schema-version-error.js';
export { ApprovalNotFoundError } from './approval-not-found-error.js';
export { ScriptMismatchError } from './script-mismatch-error.js';
