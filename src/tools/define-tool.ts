import type { ToolPermissionCheck } from '../types/permission.js';
import type { ToolDisplay } from '../types/tool-display.js';
import { compileInputSchema, type InferInput, type InputSchema } from './input-schema.js';
import type { Tool, ToolAnnotations, ToolCheckArgs, ToolExecuteArgs, ToolKind, ToolResumeArgs, RestoreFileArgs, ToolReturn, ToolRuleTarget, ToolSuspension } from './types.js';
import { validateDefineToolOptions } from './validate-define-tool-options.js';

/** Options of {@link defineTool}. */
export interface DefineToolOptions<S extends InputSchema> {
  /** Name the model calls the tool by; letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** What the tool does and when to use it; the model reads this. */
  description: string;
  /**
   * A zod 4 object schema, a zod 3 one wrapped by `zod3Schema` (from `agent-harness/zod3`), or a
   * plain JSON Schema object. Input is validated against it first. A plain JSON Schema is sent as
   * it is, so it is checked here: an object schema, valid JSON Schema 2020-12 where the
   * meta-schema constrains it, every `#…` `$ref` resolving (the Messages API refuses every
   * request of a tool list with a broken schema).
   */
  inputSchema: S;
  /**
   * Run the tool. Return a string, content blocks, `toolOutput(...)`, or any value (serialized as
   * JSON) — or `suspendCall(nested)` to wait on a nested run (then define `resume`).
   */
  execute: (args: ToolExecuteArgs<InferInput<S>>) => ToolReturn | ToolSuspension | Promise<ToolReturn | ToolSuspension>;
  /**
   * Continues a call that `execute` suspended, once the host answers an approval inside the
   * nested run. Returns the result, or a suspension again while more approvals wait.
   * @default undefined (the tool never suspends)
   */
  resume?: (args: ToolResumeArgs<InferInput<S>>) => ToolReturn | ToolSuspension | Promise<ToolReturn | ToolSuspension>;
  /**
   * The tool handles the host's answer itself: the permission updates that come with allowing a
   * call are handed to `execute` as `permissionUpdates` instead of being applied at once (e.g. to
   * change the mode only after the tool succeeded), and no note about an edited input is added
   * to the result (`hostAnswer.edited` tells the tool).
   * @default false
   */
  handlesHostAnswer?: boolean;
  /**
   * A call is a question for the user (asked in every mode; allow rules and the auto classifier
   * never answer it); `execute` gets the host's answer in `input` and `hostAnswer.edited`.
   * @default false
   */
  requiresUserInteraction?: boolean;
  /**
   * The tool only reads: it runs in plan mode and without asking in `default` mode.
   * @default false (true when `kind` is `'read'`)
   */
  readOnly?: boolean;
  /**
   * Calls may run in parallel with other concurrency-safe calls of the same turn.
   * @default the value of `readOnly`
   */
  concurrencySafe?: boolean;
  /**
   * What the tool does, for the permission pipeline (`edit` tools are auto-approved in `acceptEdits`).
   * @default 'read' when `readOnly`, else 'other'
   */
  kind?: ToolKind;
  /** Semantic checks after schema validation; return a problem description to reject the call. */
  validateInput?: (args: ToolCheckArgs<InferInput<S>>) => string | undefined | Promise<string | undefined>;
  /** The tool's own permission opinion (step 7 of the pipeline). */
  checkPermissions?: (args: ToolCheckArgs<InferInput<S>>) => ToolPermissionCheck | Promise<ToolPermissionCheck>;
  /** Whether one particular call only reads (e.g. `ls` for a shell tool); overrides `readOnly` per call. */
  isReadOnlyCall?: (input: InferInput<S>) => boolean;
  /**
   * What an approval card shows for a call in plain words (`{ title, summary, body? }`, e.g. a
   * unified diff or a command). Asked only when the call needs an approval; a `display` that
   * throws is reported as an `error` event and the card falls back to the raw input.
   * @default undefined (hosts show the tool name and input)
   */
  display?: (args: ToolCheckArgs<InferInput<S>>) => ToolDisplay | undefined | Promise<ToolDisplay | undefined>;
  /**
   * Puts back a file this tool changed when the host calls `agent.rewindFiles` (record the
   * previous content with `recordFileCheckpoint` before changing it). Throwing reports the file
   * as not restored.
   * @default undefined (files this tool changed are not rewound)
   */
  restoreFile?: (args: RestoreFileArgs) => Promise<void>;
  /**
   * Which input field `Tool(pattern)` rules match, and how.
   * @default undefined (rules with a pattern never match this tool)
   */
  ruleTarget?: ToolRuleTarget;
  /**
   * The provider tool type this tool implements, e.g. `memory_20250818` for the Messages API's
   * memory tool: the Anthropic adapter then sends `{ type, name }` and the API supplies the schema
   * the model was trained on. `inputSchema` must accept that schema's inputs.
   * @default undefined (a custom tool described by `inputSchema`)
   */
  providerType?: string;
  /**
   * Abort the call and answer the model with a timeout error after this many milliseconds.
   * @default undefined (no timeout)
   */
  timeoutMs?: number;
  /**
   * Keep the definition out of the model's context until tool search finds it: the tool is sent
   * with `defer_loading: true` beside a tool search tool (the provider's, or the client-side
   * `ToolSearch` for models without one). For tools the model needs only now and then.
   * @default false
   */
  deferLoading?: boolean;
  /**
   * Behaviour hints shown to the host with each permission question (`destructiveHint`, ...).
   * @default undefined
   */
  annotations?: ToolAnnotations;
}

/**
 * Defines a typed tool. The JSON Schema for the API is generated once, here.
 * @throws ConfigurationError for an unknown option (with the nearest valid name), an option of the
 *   wrong type or value (`readOnly: "false"`, `kind: 'write'`), a bad name, a non-object schema,
 *   or a JSON Schema that breaks JSON Schema 2020-12 (`type: 'strin'`, `properties: 5`, a `$ref`
 *   to nowhere), naming the keyword's path.
 * @example
 * const wordCount = defineTool({
 *   name: 'word_count',
 *   description: 'Counts the words of a text.',
 *   inputSchema: z.object({ text: z.string() }),
 *   readOnly: true,
 *   execute: ({ input }) => String(input.text.split(/\s+/).filter(Boolean).length),
 * });
 */
export function defineTool<S extends InputSchema>(options: DefineToolOptions<S>): Tool<InferInput<S>> {
  validateDefineToolOptions(options);
  const compiled = compileInputSchema(options.name, options.inputSchema);
  const readOnly = options.readOnly ?? options.kind === 'read';
  return {
    name: options.name,
    description: options.description,
    jsonSchema: compiled.jsonSchema,
    readOnly,
    concurrencySafe: options.concurrencySafe ?? readOnly,
    kind: options.kind ?? (readOnly ? 'read' : 'other'),
    timeoutMs: options.timeoutMs,
    ruleTarget: options.ruleTarget,
    ...(options.providerType === undefined ? {} : { providerType: options.providerType }),
    parseInput: compiled.parse as Tool<InferInput<S>>['parseInput'],
    validateInput: options.validateInput,
    checkPermissions: options.checkPermissions,
    isReadOnlyCall: options.isReadOnlyCall,
    handlesHostAnswer: options.handlesHostAnswer === true,
    requiresUserInteraction: options.requiresUserInteraction === true,
    display: options.display,
    execute: options.execute,
    ...(options.resume ? { resume: options.resume } : {}),
    ...(options.restoreFile ? { restoreFile: options.restoreFile } : {}),
    ...(options.deferLoading ? { deferLoading: true } : {}),
    ...(options.annotations ? { annotations: { ...options.annotations } } : {}),
  };
}
