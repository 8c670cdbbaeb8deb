import { isDeferredTool } from '../model/is-deferred-tool.js';
import { commonPrefixLength } from '../options/common-prefix-length.js';
import type { TextBlock } from '../model/messages.js';
import type { RequestTool } from '../model/model.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { RequestPrefix } from '../state/session-state.js';

/** Characters of each side shown around the first difference of the system prompt. */
const EXCERPT_CHARS = 40;
/** Tool names listed per kind of change before "and N more". */
const LISTED_TOOLS = 5;

/**
 * Records the request prefix (system prompt and tool names) a session's requests are sent with, at
 * the start of each run: the first run of a session stores it (in the run's first append), and a
 * later run whose prefix differs from the stored one (a session resumed with another system prompt
 * or other tools, or an MCP server's tools changed) emits a `warning` (source `prompt-cache`) and
 * stores the new one, so each change is reported once. The API reads nothing of the prompt cache
 * after a change near the start of a request: the next request writes the whole history to the
 * cache again (1.25× the input price instead of 0.1× for reading it). Tools sent deferred
 * (`defer_loading`) are not part of that prefix and are not compared.
 *
 * Cheap on every run: while the agent sends the same arrays as at its last check and the stored
 * prefix is the one it saw, nothing is compared.
 */
export function recordRequestPrefix(core: AgentCore): void {
  const seen = core.checkedPrefix;
  const tools = core.toolDefinitions;
  const recorded = core.state.prefix;
  if (seen !== undefined && seen.system === core.system && seen.tools === tools && seen.toolCount === tools.length && seen.recorded === recorded) return;
  if (recorded === undefined) {
    core.commit({ kind: 'prefix', prefix: currentPrefix(core) });
  } else {
    const changes = prefixChanges(recorded, core.system, tools);
    if (changes.length > 0) {
      core.emit({
        type: 'warning',
        source: 'prompt-cache',
        message:
          `This session's request prefix changed since its last requests: ${changes.join('; ')}. ` +
          `The next request cannot read the session's ${core.state.messages.length} messages from the prompt cache and writes them to it again (1.25× the input price instead of 0.1×). ` +
          'Keep what changes from request to request out of `system` (send it with the prompt), and give every agent of a session the same tools in the same order.',
      });
      core.commit({ kind: 'prefix', prefix: currentPrefix(core) });
    }
  }
  core.checkedPrefix = { system: core.system, tools, toolCount: tools.length, recorded: core.state.prefix };
}

function currentPrefix(core: AgentCore): RequestPrefix {
  const toolNames: string[] = [];
  for (const tool of core.toolDefinitions) if (!isDeferredTool(tool)) toolNames.push(tool.name);
  return { system: core.system, toolNames };
}

/** What differs, as phrases ("the system prompt (…)", "the tool list (…)"); empty when nothing does. */
function prefixChanges(recorded: RequestPrefix, system: readonly TextBlock[], tools: readonly RequestTool[]): string[] {
  const changes: string[] = [];
  const systemChange = systemDifference(recorded.system, system);
  if (systemChange !== undefined) changes.push(`the system prompt (${systemChange})`);
  const toolsChange = toolDifference(recorded.toolNames, tools);
  if (toolsChange !== undefined) changes.push(`the tool list (${toolsChange})`);
  return changes;
}

function systemDifference(before: readonly TextBlock[], now: readonly TextBlock[]): string | undefined {
  const count = Math.max(before.length, now.length);
  for (let index = 0; index < count; index++) {
    const was = textOf(before, index);
    const is = now[index]?.text;
    if (was === is) continue;
    if (index >= before.length) return `block ${index + 1} of ${now.length} is new (it had ${before.length})`;
    if (is === undefined) return `block ${index + 1} of ${before.length} is gone (it has ${now.length})`;
    // A stored block without text (a transcript edited by hand): different, with nothing to quote.
    if (was === undefined) return `block ${index + 1} differs: now ${excerpt(is, 0)}, before no text`;
    const at = commonPrefixLength(was, is);
    return `block ${index + 1} differs from character ${at + 1}: now ${excerpt(is, at)}, before ${excerpt(was, at)}`;
  }
  return undefined;
}

/** The text of a stored block, or undefined when it has none (stored prefixes are checked as arrays only). */
function textOf(blocks: readonly TextBlock[], index: number): string | undefined {
  const text = (blocks[index] as { text?: unknown } | null | undefined)?.text;
  return typeof text === 'string' ? text : undefined;
}

function excerpt(text: string, at: number): string {
  const part = text.slice(at, at + EXCERPT_CHARS);
  const shown = JSON.stringify(part);
  if (at + EXCERPT_CHARS < text.length) return `${shown}…`;
  return part === '' ? 'its end' : shown;
}

function toolDifference(recordedNames: readonly string[], tools: readonly RequestTool[]): string | undefined {
  // Deferred tools are found by a search, not read from the prefix: they are not compared. A
  // session stored by an earlier build lists them too, so the stored names deferred now are left
  // out (a tool sent in full that became deferred is then not reported: a miss, never a false alarm).
  const deferred = new Set<string>();
  const names: string[] = [];
  for (const tool of tools) {
    if (isDeferredTool(tool)) deferred.add(tool.name);
    else names.push(tool.name);
  }
  const before = deferred.size === 0 ? recordedNames : recordedNames.filter((name) => !deferred.has(name));
  // Names are checked as strings where the state is loaded; a stored name that is not one simply differs.
  if (before.length === names.length && before.every((name, index) => name === names[index])) return undefined;
  const had = new Set(before);
  const has = new Set(names);
  const added = names.filter((name) => !had.has(name));
  const removed = before.filter((name) => !has.has(name));
  const parts: string[] = [];
  if (added.length > 0) parts.push(`added ${listed(added)}`);
  if (removed.length > 0) parts.push(`removed ${listed(removed)}`);
  return parts.length > 0 ? parts.join(', ') : 'the same tools in another order';
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, LISTED_TOOLS).map((name) => JSON.stringify(name)).join(', ');
  return names.length > LISTED_TOOLS ? `${shown} and ${names.length - LISTED_TOOLS} more` : shown;
}
