import {
  accepts,
  checkOptions,
  isBoolean,
  isFunction,
  isNonEmptyString,
  isPlainObject,
  isString,
  isTimerMs,
  oneOf,
  required,
  shape,
  type OptionsSpec,
} from '../options/index.js';
import type { DefineToolOptions } from './define-tool.js';
import type { InputSchema } from './input-schema.js';
import type { ToolKind, ToolRuleTarget } from './types.js';

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const TOOL_KINDS: readonly ToolKind[] = ['read', 'edit', 'execute', 'other'];

const RULE_TARGET_SPEC: OptionsSpec<ToolRuleTarget> = {
  field: required(isNonEmptyString),
  kind: required(oneOf(['path', 'command'])),
  aliases: isFunction,
  reads: isFunction,
  writes: isFunction,
};

const SPEC: OptionsSpec<DefineToolOptions<InputSchema>> = {
  name: required(accepts('1-64 letters, digits, "_" or "-" (the Messages API\'s rule for tool names)', (value) => typeof value === 'string' && NAME_PATTERN.test(value))),
  description: required(isString),
  inputSchema: required(accepts('a zod object schema or a JSON Schema object', (value) => typeof value === 'object' && value !== null && !Array.isArray(value))),
  execute: required(isFunction),
  resume: isFunction,
  handlesHostAnswer: isBoolean,
  requiresUserInteraction: isBoolean,
  providerType: isNonEmptyString,
  readOnly: isBoolean,
  concurrencySafe: isBoolean,
  kind: oneOf(TOOL_KINDS),
  validateInput: isFunction,
  checkPermissions: isFunction,
  isReadOnlyCall: isFunction,
  display: isFunction,
  restoreFile: isFunction,
  ruleTarget: shape(RULE_TARGET_SPEC, { usage: "{ field: 'file_path', kind: 'path' }" }),
  // A timer fires at once past its limit: a longer timeout would end every call at once.
  timeoutMs: isTimerMs,
  deferLoading: isBoolean,
  annotations: isPlainObject,
};

/** Names from other tool libraries, and what they are called here. */
const HINTS: Readonly<Record<string, string>> = {
  parameters: 'the input schema is `inputSchema` (a zod object schema or a JSON Schema object).',
  schema: 'the input schema is `inputSchema` (a zod object schema or a JSON Schema object).',
  input_schema: 'did you mean `inputSchema`?',
  handler: 'the function that runs the tool is `execute: ({ input, signal }) => …`.',
  run: 'the function that runs the tool is `execute: ({ input, signal }) => …`.',
  invoke: 'the function that runs the tool is `execute: ({ input, signal }) => …`.',
  needsApproval: "approval is the permission pipeline's job: `checkPermissions: () => ({ behavior: 'ask' })` asks for every call.",
  readOnlyHint: 'did you mean `readOnly`?',
  annotations: 'say what the tool does with `readOnly: true` and `kind` (`read`, `edit`, `execute` or `other`).',
};

/**
 * Checks `defineTool`'s options: known keys only, each of the right type and value (`readOnly:
 * "false"` is a string, not false).
 * @throws ConfigurationError naming the option and what it accepts.
 */
export function validateDefineToolOptions(options: unknown): asserts options is DefineToolOptions<InputSchema> {
  const name = typeof (options as { name?: unknown } | null)?.name === 'string' ? (options as { name: string }).name : undefined;
  const owner = name === undefined ? 'defineTool' : `defineTool (tool "${name}")`;
  checkOptions<DefineToolOptions<InputSchema>>(options, SPEC, {
    owner,
    usage: 'defineTool({ name, description, inputSchema, execute })',
    hints: HINTS,
  });
}
