import type { AgentCore } from '../runtime/agent-core.js';
import type { ModelRequest } from '../model/model.js';
import { toolsWithOutputTool, type OutputRequest } from './structured-output.js';
import type { RunAbort } from './run-abort.js';
import { sendableHistory } from './sendable-history.js';

/**
 * Builds the request of one turn. System and tools are the same objects every turn (the
 * byte-identical prefix); the history is passed by reference, not copied, unless it holds more
 * images than one request may carry or tool blocks the request may not (see sendableHistory). The prefix
 * is recorded in the session state by the run that sends it first, at its start (runLoop).
 */
export function prepareRequest(core: AgentCore, abort: RunAbort, output?: OutputRequest): ModelRequest {
  const outputSchema = output?.native ? output.jsonSchema : undefined;
  const tools = output?.mode === 'tool' ? toolsWithOutputTool(output, core.toolDefinitions, (name) => core.hasTool(name)) : core.toolDefinitions;
  // The run's signal, made when the model reads it if nothing asked for it before (see RunAbort.lendSignal).
  const request: ModelRequest = abort.lendSignal({ system: core.system, tools, messages: sendableHistory(core.state.messages, tools, (core.historyScan ??= {})) });
  if (outputSchema) request.outputFormat = { type: 'json_schema', schema: outputSchema };
  return request;
}
