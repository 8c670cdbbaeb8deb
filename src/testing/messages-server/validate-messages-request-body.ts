import { cacheControlProblem } from './cache-control-problem.js';
import { toolSearchProblem } from './tool-search-problem.js';
import { blocksOf, type RawMessage } from './tool-result-problem.js';
import { rootCombinator } from '../../tools/root-combinator.js';
import { validateMessagesRequest } from './validate-messages-request.js';
import { checkOptions, isStringArray, type OptionsSpec } from '../../options/index.js';

/** Options of `validateMessagesRequestBody`. */
export interface ValidateMessagesRequestBodyOptions {
  /**
   * The request's `anthropic-beta` header values. With an `interleaved-thinking-*` beta,
   * `thinking.budget_tokens` may exceed `max_tokens`, as the real API allows.
   * @default []
   */
  betas?: readonly string[];
}

type RawBody = Record<string, unknown>;

const thinkingDocs = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

const OPTIONS: OptionsSpec<ValidateMessagesRequestBodyOptions> = { betas: isStringArray };

/**
 * Checks a whole Messages API request body the way the real API does and returns its
 * `invalid_request_error` message for the first violation, or undefined when it is valid:
 * required `model` and `max_tokens`, custom tools' `input_schema` of `type: "object"` without
 * `oneOf`, `anyOf` or `allOf` at its top level, the
 * conversation rules of {@link validateMessagesRequest}, tools defined whenever the messages hold
 * `tool_use` or `tool_result` blocks, `cache_control` placement and count
 * (at most 4), tool search (no deferred search tool, not every tool deferred, every
 * `tool_reference` naming a tool of the request), and extended thinking's `temperature` and
 * `budget_tokens` limits.
 * @param body - the parsed request body.
 * @param options - see {@link ValidateMessagesRequestBodyOptions}.
 */
export function validateMessagesRequestBody(body: unknown, options: ValidateMessagesRequestBodyOptions = {}): string | undefined {
  checkOptions<ValidateMessagesRequestBodyOptions>(options, OPTIONS, { owner: 'validateMessagesRequestBody', optional: true });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'Input should be a valid dictionary';
  const request = body as RawBody;
  return (
    requiredFieldProblem(request) ??
    toolSchemaProblem(request.tools) ??
    validateMessagesRequest(request.messages) ??
    toolsRequiredProblem(request) ??
    cacheControlProblem(request) ??
    toolSearchProblem(request) ??
    thinkingProblem(request, options.betas ?? [])
  );
}

function requiredFieldProblem(request: RawBody): string | undefined {
  if (request.model === undefined) return 'model: Field required';
  if (request.max_tokens === undefined) return 'max_tokens: Field required';
  return undefined;
}

/** Custom tools (no `type`, or `custom`) need an object `input_schema`; server tools are not checked. */
function toolSchemaProblem(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index] as RawBody;
    if (typeof tool !== 'object' || tool === null) return `tools.${index}: Input should be a valid dictionary`;
    if (tool.type !== undefined && tool.type !== 'custom') continue;
    const schema = tool.input_schema as RawBody | undefined;
    if (typeof schema !== 'object' || schema === null) return `tools.${index}.custom.input_schema: Field required`;
    if (schema.type === undefined) return `tools.${index}.custom.input_schema.type: Field required`;
    if (schema.type !== 'object') return `tools.${index}.custom.input_schema.type: Input should be 'object'`;
    if (rootCombinator(schema) !== undefined) return `tools.${index}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`;
  }
  return undefined;
}

/** A history with `tool_use` or `tool_result` blocks needs tools in the request (any, not necessarily those called). */
function toolsRequiredProblem(request: RawBody): string | undefined {
  if (Array.isArray(request.tools) && request.tools.length > 0) return undefined;
  const hasToolBlocks = (request.messages as RawMessage[]).some((message) => blocksOf(message).some((block) => block.type === 'tool_use' || block.type === 'tool_result'));
  return hasToolBlocks ? 'Requests which include `tool_use` or `tool_result` blocks must define tools.' : undefined;
}

function thinkingProblem(request: RawBody, betas: readonly string[]): string | undefined {
  const thinking = request.thinking as RawBody | undefined;
  if (thinking?.type !== 'enabled') return undefined;
  if (request.temperature !== undefined && request.temperature !== 1) {
    return `\`temperature\` may only be set to 1 when thinking is enabled. Please consult our documentation at ${thinkingDocs}#important-considerations-when-using-extended-thinking`;
  }
  const interleaved = betas.some((beta) => beta.startsWith('interleaved-thinking'));
  const budget = thinking.budget_tokens;
  if (!interleaved && typeof budget === 'number' && typeof request.max_tokens === 'number' && budget >= request.max_tokens) {
    return `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${thinkingDocs}#max-tokens-and-context-window-size`;
  }
  return undefined;
}
