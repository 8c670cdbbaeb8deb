import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';
import type { PermissionMode, ToolPermissionCheck } from '../../../src/types/permission.js';
import { isToolOutput } from '../../../src/tools/tool-output.js';
import type { Tool, ToolAgentContext } from '../../../src/tools/types.js';
import { decidePermission } from '../../../src/permissions/decide-permission.js';
import { createRuleSet } from '../../../src/permissions/rule-set.js';
import { agentContext } from '../../permissions/fixtures.js';

/** A fresh directory under the OS temp dir, by real path. */
export async function makeTempDir(prefix = 'ws-tools-'): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
}

/** A fake agent context with a Map-backed tool state (values JSON round-tripped, as in snapshots). */
export function fakeAgent(permissionMode: PermissionMode = 'default'): ToolAgentContext & { state: Map<string, unknown> } {
  const state = new Map<string, unknown>();
  return {
    sessionId: 'session-test',
    agentId: undefined,
    permissionMode,
    state,
    toolState: {
      get: <T>(key: string) => (state.has(key) ? (JSON.parse(JSON.stringify(state.get(key))) as T) : undefined),
      set: (key: string, value: unknown) => void state.set(key, JSON.parse(JSON.stringify(value))),
    },
  };
}

/** A tool result as text plus its error flag. */
export interface CallOutcome {
  stage: 'parse' | 'validate' | 'permission' | 'execute';
  text: string;
  isError: boolean;
  /** The tool's own permission opinion, when reached. */
  check?: ToolPermissionCheck;
  raw?: unknown;
}

let counter = 0;

/** Normalizes what `execute` returned. */
export function outcomeOf(raw: unknown): { text: string; isError: boolean } {
  if (typeof raw === 'string') return { text: raw, isError: false };
  if (isToolOutput(raw)) {
    const text = typeof raw.content === 'string' ? raw.content : raw.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
    return { text, isError: raw.isError ?? false };
  }
  if (Array.isArray(raw)) return { text: raw.map((block: { type: string; text?: string }) => block.text ?? `[${block.type}]`).join(''), isError: false };
  return { text: JSON.stringify(raw), isError: false };
}

/**
 * Runs a call the way the pipeline would for these tools: parse, validate, checkPermissions
 * (an `ask` is answered by `answer`, default: deny), then execute.
 */
export async function callTool(
  tool: Tool,
  input: unknown,
  options: { agent?: ToolAgentContext; answer?: (check: ToolPermissionCheck) => boolean; signal?: AbortSignal; toolUseId?: string } = {},
): Promise<CallOutcome> {
  const agent = options.agent ?? fakeAgent();
  const signal = options.signal ?? new AbortController().signal;
  const toolUseId = options.toolUseId ?? `toolu_${++counter}`;
  const parsed = tool.parseInput(input);
  if (!parsed.ok) return { stage: 'parse', text: parsed.issues.join('; '), isError: true };
  const problem = await tool.validateInput?.({ input: parsed.value, toolUseId, agent, signal });
  if (problem) return { stage: 'validate', text: problem, isError: true };
  const check = (await tool.checkPermissions?.({ input: parsed.value, toolUseId, agent, signal })) ?? { behavior: 'passthrough' };
  if (check.behavior === 'deny') return { stage: 'permission', text: check.message, isError: true, check };
  if (check.behavior === 'ask' && !(options.answer ?? (() => false))(check)) {
    return { stage: 'permission', text: check.message ?? 'asked and denied', isError: true, check };
  }
  const raw = await tool.execute({ input: parsed.value, toolUseId, agent, signal });
  return { stage: 'execute', ...outcomeOf(raw), check, raw };
}

/** Finds a tool by name. */
export function toolNamed(tools: Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

/** Polls until `predicate` holds, a bounded number of times. */
export async function waitUntil(predicate: () => boolean | Promise<boolean>, attempts = 500, intervalMs = 10): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return false;
}

/** Every file and directory below `root`: type, size, mtime and content, for before/after comparisons. */
export async function snapshotTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const visit = async (directory: string) => {
    const dirStat = await fs.lstat(directory);
    out[path.relative(root, directory) || '.'] = `dir mtime=${dirStat.mtimeMs} mode=${dirStat.mode}`;
    for (const entry of await fs.readdir(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      const stat = await fs.lstat(full);
      const key = path.relative(root, full);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isSymbolicLink()) out[key] = `link -> ${await fs.readlink(full)} mtime=${stat.mtimeMs}`;
      else out[key] = `file size=${stat.size} mtime=${stat.mtimeMs} mode=${stat.mode} content=${(await fs.readFile(full)).toString('base64')}`;
    }
  };
  await visit(root);
  return out;
}

/** The pipeline's decision on one Bash command in plan mode, with no rules and no host. */
export async function planModeDecision(bash: Tool, command: string, cwd: string): Promise<string> {
  const outcome = await decidePermission({
    tool: bash,
    toolUseId: 'toolu_plan',
    rawInput: { command },
    mode: 'plan',
    rules: createRuleSet(),
    signal: new AbortController().signal,
    agent: agentContext('plan'),
    emit: () => {},
    cwd,
  });
  return outcome.decision.behavior;
}

/**
 * Makes every file handle's `chown` fail as in a user namespace that does not map the owner
 * (`EINVAL`), until the returned spy is restored.
 * @param anyFile - a file to open once, to reach the file handle class.
 */
export async function failingChown(anyFile: string) {
  const probe = await fs.open(anyFile, 'r');
  const handles = Object.getPrototypeOf(probe) as { chown: (uid: number, gid: number) => Promise<void> };
  await probe.close();
  return vi.spyOn(handles, 'chown').mockRejectedValue(Object.assign(new Error('EINVAL: invalid argument, fchown'), { code: 'EINVAL' }));
}
