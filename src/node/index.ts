/**
 * `agent-harness/node`: the parts that need Node's file system and processes.
 * @packageDocumentation
 */
export { filePlanStore, type FilePlanStoreOptions } from './file-plan-store.js';
export { fileSessionStore, type FileSessionStoreOptions } from './file-session-store.js';
export { SessionLockedError, type SessionLockHolder, type SessionLockedErrorOptions } from '../errors/session-locked-error.js';
export { readClaudeCodeSessionFile, type ReadClaudeCodeSessionFileOptions } from './claude-code/read-claude-code-session-file.js';
export { workspaceTools, type WorkspaceToolName, type WorkspaceToolsOptions } from './workspace-tools.js';
export { DEFAULT_INHERITED_ENV } from './workspace-tools/bash-environment.js';
export { classifyBashCommand, type BashCommandClassification } from './workspace-tools/classify-bash-command.js';
export { findCatastrophicCommand, type FindCatastrophicCommandOptions } from './workspace-tools/find-catastrophic-command.js';
export { fileMemoryStore, type FileMemoryStoreOptions } from './file-memory-store.js';
export { loadInstructions, type LoadInstructionsOptions, type LoadedInstructions, type InstructionFile } from './load-instructions.js';
export { stdioMcpServer, MAX_STDIO_MCP_LINE_BYTES, type StdioMcpServerOptions } from './stdio-mcp-server.js';
export { loadSkills, type LoadSkillsOptions } from './load-skills.js';
export { parseSkillFile, splitAllowedTools } from './skills/parse-skill-file.js';
