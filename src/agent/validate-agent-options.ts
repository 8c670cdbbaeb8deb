import { ConfigurationError } from '../errors/configuration-error.js';
import { isSnapshotKeys } from '../runtime/is-snapshot-keys.js';
import { validateHooksConfig } from '../hooks/validate-hooks-config.js';
import { DEFAULT_PRICES, findPrice, type ModelPrice } from '../model/pricing.js';
import {
  accepts,
  arrayOf,
  checkOptions,
  either,
  isBoolean,
  isFunction,
  isNonEmptyString,
  isNonNegativeInteger,
  isObject,
  isPlainObject,
  isPlanStore,
  isSessionStore,
  isTracer,
  isPositiveInteger,
  isPositiveNumber,
  isString,
  isStringArray,
  oneOf,
  optionProblem,
  recordOf,
  required,
  shape,
  type OptionCheck,
  type OptionsSpec,
} from '../options/index.js';
import { PERMISSION_MODES, type AutoModeOptions, type PermissionRules } from '../types/permission.js';
import type { AgentOptions, VerifyPlanOnCompletionOptions } from '../runtime/agent-options.js';
import type { Model } from '../model/model.js';
import type { StreamRetryBackoff } from '../types/stream-retry-backoff.js';
import type { AgentDefinition } from '../runtime/agent-definition.js';
import { CLAUDE_AGENT_SDK_HINTS } from './claude-agent-sdk-hints.js';
import { assertToolJsonSchema } from '../tools/assert-tool-json-schema.js';
import { isServerTool } from '../tools/server-tool.js';
import { MAX_TIMER_MS } from '../types/max-timer-ms.js';
import { MAX_SESSION_ID_BYTES, invalidSessionIdReason } from '../session/assert-session-id.js';
import { assertToolSourceOptions } from '../tool-sources/index.js';
import type { ClearingOptions, CompactionOptions, ContextOptions, MemoryToolOptions, SpillOptions } from '../context/index.js';

/**
 * The Claude Agent SDK's model aliases (a subagent's `model: 'sonnet'`), which are no model ids:
 * wrapped as they are, the API would refuse them at the first call.
 */
const CLAUDE_MODEL_ALIASES: Readonly<Record<string, string>> = {
  inherit: " For the parent's model (the Claude Agent SDK's 'inherit'), leave `model` out.",
  sonnet: " 'sonnet' is an alias of the Claude Agent SDK, not a model id: model: anthropicModel({ model: \"claude-sonnet-4-6\" }).",
  opus: " 'opus' is an alias of the Claude Agent SDK, not a model id: model: anthropicModel({ model: \"claude-opus-4-6\" }).",
  haiku: " 'haiku' is an alias of the Claude Agent SDK, not a model id: model: anthropicModel({ model: \"claude-haiku-4-5\" }).",
};

/** A `Model`: an object with a `stream(request)` method (a model id string gets a hint to wrap it). */
export const isModel: OptionCheck = (value, place) => {
  if (isObject(value) && typeof value.stream === 'function') return;
  const fix = typeof value !== 'string' ? '' : CLAUDE_MODEL_ALIASES[value] ?? ` For a model id, wrap it: model: anthropicModel({ model: ${JSON.stringify(value)} }).`;
  throw new ConfigurationError(
    `${optionProblem(place, 'a Model (an object with a `stream(request)` method), e.g. anthropicModel({ model: "claude-sonnet-4-6" }) or scriptedModel([...]) from agent-harness/testing', value)}${fix}`,
  );
};

const isTool: OptionCheck = (value, place) => {
  if (isObject(value) && typeof value.parseInput === 'function' && typeof value.execute === 'function') {
    // What the request will carry: a tool object not made by defineTool (or changed since) is checked here.
    assertToolJsonSchema(String(value.name), value.jsonSchema);
    return;
  }
  if (isServerTool(value)) return;
  // A Claude Agent SDK port passes tool names (`tools: ['Read', 'Bash']`): say where those tools are.
  const fix =
    typeof value === 'string'
      ? " A tool name is not a tool: Claude Code's Read, Write, Edit, Glob, Grep and Bash are workspaceTools({ cwd }) from agent-harness/node, and a list of names that may run unasked is an allow rule list: rules: { allow: ['Read'] }."
      : '';
  throw new ConfigurationError(`${optionProblem(place, 'a tool made with defineTool({ name, description, inputSchema, execute }) (or serverTool())', value)}${fix}`);
};

/** The Claude Agent SDK's preset objects (`{ type: 'preset', preset: 'claude_code' }`), which have nothing to name here. */
function isClaudeCodePreset(value: unknown): boolean {
  return isObject(value) && value.type === 'preset';
}

const isTools: OptionCheck = (value, place) => {
  if (isClaudeCodePreset(value)) {
    throw new ConfigurationError(
      `${optionProblem(place, 'an array of tools made with defineTool()', value)} There is no Claude Code preset: pass the tools themselves, e.g. tools: workspaceTools({ cwd }) from agent-harness/node (Read, Write, Edit, Glob, Grep, Bash).`,
    );
  }
  arrayOf(isTool, 'an array of tools made with defineTool()')(value, place);
};

const isSystem: OptionCheck = (value, place) => {
  if (isClaudeCodePreset(value)) {
    throw new ConfigurationError(`${optionProblem(place, 'a string', value)} There is no Claude Code prompt to start from or append to: pass your whole prompt, system: "You are …".`);
  }
  isString(value, place);
};

/** MCP servers and skills are checked by the tool sources, which know their shapes. */
const isMcpServers: OptionCheck = (value) => assertToolSourceOptions({ mcpServers: value as never });
const isSkills: OptionCheck = (value) => assertToolSourceOptions({ skills: value as never });

const isRuleList = isStringArray;

const RULES_SPEC: OptionsSpec<PermissionRules> = { allow: isRuleList, deny: isRuleList, ask: isRuleList };

/**
 * Checks the rules a host passes to `agent.addRules`: an object of rule lists (`allow`, `deny`,
 * `ask`) and nothing else, so a typo (`allowed`) is not taken as no rules at all.
 * @throws ConfigurationError naming the bad key or value and the fix.
 */
export function validateRulesArgument(rules: unknown, owner: string): asserts rules is PermissionRules {
  checkOptions<PermissionRules>(rules, RULES_SPEC, { owner, usage: `${owner}({ allow: ['Read'], deny: ['Bash(rm:*)'] })` });
}

const AUTO_MODE_SPEC: OptionsSpec<AutoModeOptions> = { classify: required(isFunction), isAvailable: isFunction };

const isPrice = accepts('a number of US dollars per million tokens (0 or more)', (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0);

const PRICE_SPEC: OptionsSpec<ModelPrice> = { input: required(isPrice), output: required(isPrice), cacheWrite: isPrice, cacheRead: isPrice };

/** `false` (or, with `orTrue`, `true`) as it is, else the nested options object with its own messages. */
const orBoolean = (check: OptionCheck, orTrue: boolean): OptionCheck => (value, place) => {
  if (value === false || (orTrue && value === true)) return;
  if (typeof value === 'boolean') throw new ConfigurationError(optionProblem(place, 'false or an options object', value));
  check(value, place);
};

const isFraction = accepts('a fraction above 0 and at most 1, e.g. 0.8', (value) => typeof value === 'number' && value > 0 && value <= 1);

const STREAM_RETRY_BACKOFF_SPEC: OptionsSpec<StreamRetryBackoff> = { initialDelayMs: isNonNegativeInteger, maxDelayMs: isNonNegativeInteger, sleep: isFunction, random: isFunction };
const SPILL_SPEC: OptionsSpec<SpillOptions> = { maxChars: isPositiveInteger, headChars: isNonNegativeInteger, tailChars: isNonNegativeInteger };
const CLEARING_SPEC: OptionsSpec<ClearingOptions> = {
  triggerFraction: isFraction,
  keepRecentTurns: isNonNegativeInteger,
  excludeTools: isStringArray,
  minimumResultChars: isNonNegativeInteger,
  clearAtLeastChars: isNonNegativeInteger,
};
const COMPACTION_SPEC: OptionsSpec<CompactionOptions> = {
  threshold: isFraction,
  outputReserve: isNonNegativeInteger,
  keepTokens: isNonNegativeInteger,
  instructions: isString,
  auto: isBoolean,
};
const CONTEXT_SPEC: OptionsSpec<ContextOptions> = {
  window: isPositiveInteger,
  windows: recordOf(isPositiveInteger, 'an object of context windows in tokens by model id prefix'),
  spill: orBoolean(shape(SPILL_SPEC, { usage: '{ maxChars: 40000 }' }), true),
  clearing: orBoolean(shape(CLEARING_SPEC, { usage: '{ triggerFraction: 0.5, keepRecentTurns: 3 }' }), false),
  compaction: orBoolean(shape(COMPACTION_SPEC, { usage: '{ threshold: 0.9, outputReserve: 20000 }' }), false),
};
const isMemoryStore = accepts('a memory store (memoryMemoryStore(), or fileMemoryStore({ dir }) from agent-harness/node)', (value) =>
  isObject(value) && ['stat', 'readFile', 'list', 'writeFile', 'delete', 'rename'].every((method) => typeof value[method] === 'function'),
);
const MEMORY_SPEC: OptionsSpec<MemoryToolOptions> = { store: required(isMemoryStore), maxFileChars: isPositiveInteger };

const hooksCheck: OptionCheck = (value) => validateHooksConfig(value);

const AGENT_DEFINITION_SPEC: OptionsSpec<AgentDefinition> = {
  description: required(isNonEmptyString),
  prompt: required(isNonEmptyString),
  tools: isStringArray,
  readOnly: isBoolean,
  model: isModel,
  permissionMode: oneOf(PERMISSION_MODES),
  maxTurns: isPositiveInteger,
  maxDepth: isNonNegativeInteger,
};

const isAgents: OptionCheck = (value, place) => {
  recordOf(shape(AGENT_DEFINITION_SPEC, { usage: "{ description: 'Finds files', prompt: 'You explore.', tools: ['Read', 'Grep'] }" }), 'an object of subagent definitions by type name')(value, place);
  if (Object.keys(value as object).length === 0) {
    throw new ConfigurationError('createAgent: `agents` must define at least one subagent type, e.g. agents: { explore: BUILTIN_AGENTS.explore }; leave it out for no `Agent` tool.');
  }
  for (const type of Object.keys(value as object)) {
    const problem = subagentTypeProblem(type);
    if (problem) throw new ConfigurationError(`${place.owner}: the subagent type ${JSON.stringify(type)} in \`${place.path}\` ${problem}; name types as Claude Code does, lowercase words joined by hyphens: "code-reviewer".`);
  }
};

/** The most characters of a subagent type's name (the model writes it in each `Agent` call). */
const MAX_SUBAGENT_TYPE_CHARS = 64;

/**
 * Why a subagent type's name cannot serve: the model reads the names in the `Agent` tool's
 * description and writes one back in `subagent_type`, and hooks match them: a name must be
 * visible, on one line, and short enough to copy.
 */
function subagentTypeProblem(type: string): string | undefined {
  if (type.trim() === '') return 'is blank';
  if (type.length > MAX_SUBAGENT_TYPE_CHARS) return `is longer than ${MAX_SUBAGENT_TYPE_CHARS} characters`;
  if (type !== type.trim()) return 'starts or ends with whitespace';
  // Control, line-breaking, format (bidi, zero-width) and unassigned characters.
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Co}\p{Cs}]/u.test(type)) return 'holds a control, line-break or invisible character';
  return undefined;
}

const VERIFY_ON_COMPLETION_SPEC: OptionsSpec<VerifyPlanOnCompletionOptions> = { model: isModel };

/** A session id every store takes, checked when the agent is made rather than at its first write. */
const isSessionId: OptionCheck = (value, place) => {
  isNonEmptyString(value, place);
  const reason = invalidSessionIdReason(value);
  if (reason) {
    throw new ConfigurationError(
      `${place.owner}: \`${place.path}\` ${reason}; a session id is a non-empty string of well-formed Unicode without NUL characters, at most ${MAX_SESSION_ID_BYTES} bytes of UTF-8, e.g. "session_V1StGXR8Z5jdHi6B".`,
    );
  }
};

const AGENT_OPTIONS_SPEC: OptionsSpec<AgentOptions> = {
  agents: isAgents,
  maxSubagentConcurrency: isPositiveInteger,
  verifyPlanOnCompletion: either('true, false, or { model? }', isBoolean, shape(VERIFY_ON_COMPLETION_SPEC, { usage: '{ model: anthropicModel({ model: "claude-haiku-4-5" }) }' })),
  model: required(isModel),
  system: isSystem,
  tools: isTools,
  mcpServers: isMcpServers,
  skills: isSkills,
  toolSearch: oneOf(['auto', 'regex', 'bm25', 'client']),
  permissionMode: oneOf(PERMISSION_MODES),
  allowDangerouslySkipPermissions: isBoolean,
  canUseTool: isFunction,
  rules: shape(RULES_SPEC, { usage: "{ allow: ['Read'], deny: ['Bash(rm:*)'], ask: [] }" }),
  autoMode: shape(AUTO_MODE_SPEC, { usage: '{ classify: ({ toolName, input }) => ({ behavior: "allow" }) }' }),
  hooks: hooksCheck,
  cwd: isNonEmptyString,
  maxTurns: isPositiveInteger,
  maxBudgetUsd: isPositiveNumber,
  prices: recordOf(shape(PRICE_SPEC, { usage: '{ input: 3, output: 15 }' }), 'an object of prices by model id prefix'),
  sessionId: isSessionId,
  agentId: isNonEmptyString,
  resume: either('a snapshot object (agent.snapshot()) or a session id string', isNonEmptyString, isPlainObject),
  store: isSessionStore,
  fencingToken: isPositiveInteger,
  checkLease: isFunction,
  storeWriteGraceMs: accepts(`an integer from 0 to ${MAX_TIMER_MS} (milliseconds)`, (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_TIMER_MS),
  claimApproval: isFunction,
  tracer: isTracer,
  askUserQuestion: isBoolean,
  snapshotKey: isSnapshotKeys,
  todoWrite: isBoolean,
  exitPlanMode: isBoolean,
  enterPlanMode: isBoolean,
  planModeInstructions: isString,
  planStore: isPlanStore,
  maxToolResultChars: isPositiveInteger,
  maxToolConcurrency: isPositiveInteger,
  maxToolCallsPerTurn: isPositiveInteger,
  maxStreamRetries: isNonNegativeInteger,
  refusedAnswers: oneOf(['withhold', 'keep']),
  streamRetryBackoff: either(
    'false, or { initialDelayMs?, maxDelayMs?, sleep?, random? }',
    accepts('false', (value) => value === false),
    shape(STREAM_RETRY_BACKOFF_SPEC, { usage: '{ initialDelayMs: 500, maxDelayMs: 8000 }' }),
  ),
  context: shape(CONTEXT_SPEC, { usage: '{ window: 200000, spill: true, compaction: { threshold: 0.9 } }' }),
  memory: shape(MEMORY_SPEC, { usage: '{ store: memoryMemoryStore() }' }),
};

/**
 * A budget counts every model call of a run, its subagents' too: each model that may run needs a
 * price, or the run's cost is unknown and the budget could never stop it.
 */
function checkBudgetPrices(options: AgentOptions): void {
  const prices = options.prices ? { ...DEFAULT_PRICES, ...options.prices } : DEFAULT_PRICES;
  const models: Array<[Model, string]> = [[options.model, 'model']];
  for (const [type, definition] of Object.entries(options.agents ?? {})) if (definition.model) models.push([definition.model, `agents.${type}.model`]);
  const verifier = options.verifyPlanOnCompletion;
  if (typeof verifier === 'object' && verifier.model) models.push([verifier.model, 'verifyPlanOnCompletion.model']);
  for (const [model, option] of models) {
    if (findPrice(model.modelId ?? '', prices)) continue;
    const where = option === 'model' ? '' : ` (${option})`;
    throw new ConfigurationError(
      `createAgent: maxBudgetUsd needs a price for model "${model.modelId}"${where}, and the price table has none. Pass it: prices: { '${model.modelId}': { input: <USD per million input tokens>, output: <USD per million output tokens> } }.`,
    );
  }
}

/**
 * Checks `createAgent`'s options: every key is an option (the nearest valid name, or what to use
 * instead of a Claude Agent SDK name, when not), every value has the right type and range, and
 * options that depend on each other agree.
 * @throws ConfigurationError naming the first bad option and the fix.
 */
export function validateAgentOptions(options: unknown): asserts options is AgentOptions {
  checkOptions<AgentOptions>(options, AGENT_OPTIONS_SPEC, {
    owner: 'createAgent',
    usage: 'createAgent({ model, system, tools })',
    hints: CLAUDE_AGENT_SDK_HINTS,
  });
  if (options.maxBudgetUsd !== undefined) checkBudgetPrices(options);
  if (options.fencingToken !== undefined && !options.store) {
    throw new ConfigurationError(
      `createAgent: \`fencingToken\` (${options.fencingToken}) guards the appends to a session store, and there is no \`store\`. Pass the store whose lease it comes from: createAgent({ store, fencingToken: lease.fencingToken }).`,
    );
  }
  if (options.storeWriteGraceMs !== undefined && !options.store) {
    throw new ConfigurationError(
      `createAgent: \`storeWriteGraceMs\` (${options.storeWriteGraceMs}) bounds the wait on a session store's writes after an interrupt, and there is no \`store\`. Pass the store, or leave storeWriteGraceMs out.`,
    );
  }
  if (typeof options.resume === 'string' && !options.store) {
    throw new ConfigurationError(`createAgent: resume "${options.resume}" is a session id, which needs the \`store\` it was saved in (e.g. store: fileSessionStore({ dir })). To resume without a store, pass the object agent.snapshot() returned.`);
  }
}
