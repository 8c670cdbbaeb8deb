import { nanoid } from 'nanoid';
import { ConfigurationError } from '../errors/configuration-error.js';
import { validateHooksConfig } from '../hooks/validate-hooks-config.js';
import { createEnterPlanModeTool } from '../tools/builtin/enter-plan-mode.js';
import { createExitPlanModeTool } from '../tools/builtin/exit-plan-mode.js';
import { createTodoWriteTool } from '../tools/builtin/todo-write.js';
import type { Tool } from '../tools/types.js';
import { Agent } from './agent.js';
import { AgentCore } from './agent-core.js';
import type { AgentOptions } from './agent-options.js';
import { readSnapshot, type AgentSnapshot } from './snapshot.js';

function validateOptions(options: AgentOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError('createAgent needs an options object: createAgent({ model, system, tools }).');
  }
  const model = options.model as Partial<AgentOptions['model']> | undefined;
  if (!model || typeof model.stream !== 'function') {
    throw new ConfigurationError('createAgent: `model` is required and must implement Model (a `stream(request)` method), e.g. model: anthropicModel({ model: "claude-sonnet-4-6" }) or scriptedModel([...]) from agent-harness/testing.');
  }
  if (options.tools !== undefined && !Array.isArray(options.tools)) {
    throw new ConfigurationError('createAgent: `tools` must be an array of tools made with defineTool().');
  }
  for (const [index, tool] of (options.tools ?? []).entries()) {
    if (!tool || typeof tool.parseInput !== 'function' || typeof tool.execute !== 'function') {
      throw new ConfigurationError(`createAgent: tools[${index}] is not a tool; create tools with defineTool({ name, description, inputSchema, execute }).`);
    }
  }
  for (const key of ['maxTurns', 'maxToolResultChars', 'maxToolConcurrency'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new ConfigurationError(`createAgent: \`${key}\` must be a positive integer, got ${JSON.stringify(value)}.`);
    }
  }
  if (options.maxStreamRetries !== undefined && !(Number.isInteger(options.maxStreamRetries) && options.maxStreamRetries >= 0)) {
    throw new ConfigurationError(`createAgent: \`maxStreamRetries\` must be an integer of 0 or more, got ${JSON.stringify(options.maxStreamRetries)}.`);
  }
  if (options.maxBudgetUsd !== undefined && !(typeof options.maxBudgetUsd === 'number' && options.maxBudgetUsd > 0)) {
    throw new ConfigurationError(`createAgent: \`maxBudgetUsd\` must be a positive number of US dollars, got ${JSON.stringify(options.maxBudgetUsd)}.`);
  }
  if (options.canUseTool !== undefined && typeof options.canUseTool !== 'function') {
    throw new ConfigurationError('createAgent: `canUseTool` must be a function (toolName, input, context) => result.');
  }
  if (options.hooks !== undefined) validateHooksConfig(options.hooks);
}

function build(options: AgentOptions, snapshot: AgentSnapshot | undefined, origin: 'startup' | 'resume' | 'fork'): Agent {
  let core: AgentCore | undefined;
  const getCore = () => core!;
  const tools: Tool[] = [...(options.tools ?? [])];
  if (options.todoWrite ?? true) tools.push(createTodoWriteTool(getCore));
  if (options.exitPlanMode ?? true) tools.push(createExitPlanModeTool(getCore));
  if (options.enterPlanMode ?? false) tools.push(createEnterPlanModeTool(getCore));
  const sessionId = snapshot?.sessionId ?? options.sessionId ?? `session_${nanoid(16)}`;
  core = new AgentCore(options, tools, sessionId, snapshot, origin);
  return new Agent(core, (forkSnapshot) => build(options, forkSnapshot, 'fork'));
}

/**
 * Creates an agent: one conversation with a model, its tools and permissions. Cheap: no I/O,
 * no subprocess.
 * @throws ConfigurationError naming the bad option.
 * @throws UnsupportedSchemaVersionError when `resume` is a snapshot this version cannot read.
 * @example
 * const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6' }), system: 'You are a writing assistant.' });
 * const result = await agent.run('Outline an article about tide pools.').result;
 */
export function createAgent(options: AgentOptions): Agent {
  validateOptions(options);
  const snapshot = options.resume === undefined ? undefined : readSnapshot(options.resume);
  if (snapshot && options.sessionId !== undefined && options.sessionId !== snapshot.sessionId) {
    throw new ConfigurationError(`createAgent: sessionId "${options.sessionId}" differs from the resumed snapshot's "${snapshot.sessionId}"; leave sessionId out when resuming.`);
  }
  return build(options, snapshot, snapshot ? 'resume' : 'startup');
}
