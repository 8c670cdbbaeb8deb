import { vi } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tools/define-tool.js';
import type { Tool, ToolAgentContext } from '../../src/tools/types.js';
import type { DecidePermissionArgs, PermissionEventDraft } from '../../src/permissions/decide-permission-types.js';
import type { PermissionMode } from '../../src/types/permission.js';
import { createRuleSet } from '../../src/permissions/rule-set.js';

export const readTool = defineTool({
  name: 'Read',
  description: 'Reads a file.',
  inputSchema: z.object({ file_path: z.string() }),
  readOnly: true,
  ruleTarget: { field: 'file_path', kind: 'path' },
  execute: () => '',
});

export const editTool = defineTool({
  name: 'Edit',
  description: 'Edits a file.',
  inputSchema: z.object({ file_path: z.string(), text: z.string().optional() }),
  kind: 'edit',
  ruleTarget: { field: 'file_path', kind: 'path' },
  execute: () => '',
});

export const bashTool = defineTool({
  name: 'Bash',
  description: 'Runs a command.',
  inputSchema: z.object({ command: z.string() }),
  kind: 'execute',
  ruleTarget: { field: 'command', kind: 'command' },
  isReadOnlyCall: (input) => /^(ls|cat|git status)( |$)/.test(input.command),
  execute: () => '',
});

/** A tool whose every call is fixed by the test: name, flags and check. */
export function makeTool(overrides: Partial<Tool> & { name: string }): Tool {
  const base = defineTool({
    name: overrides.name,
    description: 'test tool',
    inputSchema: z.object({ value: z.string() }),
    execute: () => '',
  });
  return { ...base, ...overrides };
}

export function agentContext(mode: PermissionMode = 'default', agentId?: string): ToolAgentContext {
  const state = new Map<string, unknown>();
  return {
    sessionId: 'session-1',
    agentId,
    permissionMode: mode,
    toolState: { get: <T>(key: string) => state.get(key) as T | undefined, set: (key, value) => void state.set(key, value) },
  };
}

/** Arguments for decidePermission with a recording `emit`. */
export function makeArgs(overrides: Partial<DecidePermissionArgs> & Pick<DecidePermissionArgs, 'tool' | 'rawInput'>) {
  const events: PermissionEventDraft[] = [];
  const mode = overrides.mode ?? 'default';
  const args: DecidePermissionArgs = {
    toolUseId: 'toolu_1',
    mode,
    rules: createRuleSet(),
    signal: new AbortController().signal,
    agent: agentContext(mode),
    emit: vi.fn((event: PermissionEventDraft) => void events.push(event)),
    ...overrides,
  };
  return { args, events };
}
