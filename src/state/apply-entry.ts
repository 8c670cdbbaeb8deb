import type { McpToolRecord } from '../types/mcp-tool-record.js';
import type { AssistantMessage, ContentBlock, Message, TextBlock, ToolResultBlock, ToolUseBlock } from '../model/messages.js';
import type { Usage } from '../model/usage.js';
import type { EntryDraft, SessionEntry } from './entries.js';
import type { BatchCall, SessionState } from './session-state.js';
import { setOwnField } from '../model/set-own-field.js';
import { withholdRefusedAnswer } from './withhold-refused-answer.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/**
 * The one place a session's state changes: applies a transcript entry (or a draft of one) to
 * the state and returns the state — the same object, changed in place, except for a
 * `checkpoint`, which returns a fresh copy of the state it carries. The live agent records an
 * entry and applies it with this function; loading folds a stored transcript with it; so the
 * two always agree. Entries that name a call the open batch does not have change nothing.
 * Never throws for a well-typed entry.
 */
export function applyEntry(state: SessionState, entry: SessionEntry | EntryDraft): SessionState {
  if (!isObjectValue(state) || !Array.isArray(state.messages)) throw argumentError('applyEntry', 'state', 'a session state (createSessionState() or foldEntries())', state);
  if (!isObjectValue(entry) || typeof entry.kind !== 'string') throw argumentError('applyEntry', 'entry', 'a session entry ({ kind, ... })', entry);
  return applyEntryUnchecked(state, entry);
}

/** {@link applyEntry} without its argument checks, for the library's own calls (their arguments are known good). @internal */
export function applyEntryUnchecked(state: SessionState, entry: SessionEntry | EntryDraft): SessionState {
  switch (entry.kind) {
    case 'message':
      appendMessage(state, entry.message, entry.usage, entry.stopReason === 'refusal', entry.mcpTools);
      break;
    case 'mode-change':
      state.permissionMode = entry.to;
      if (entry.prePlanMode !== undefined) state.prePlanMode = entry.prePlanMode;
      if (entry.reminder) state.pendingReminders.push(entry.reminder);
      break;
    case 'reminder':
      state.pendingReminders.push(entry.text);
      break;
    case 'todo-update':
      state.todos = entry.todos.map((todo) => ({ ...todo }));
      break;
    case 'session-meta':
      if (entry.slug !== undefined) state.planSlug = entry.slug;
      break;
    case 'plan-snapshot':
      state.planSlug = entry.slug;
      state.plan = { name: entry.name, text: entry.text };
      break;
    case 'rules-added':
      state.sessionRules[entry.behavior].push(...entry.rules);
      break;
    case 'rules-changed': {
      const remove = new Set(entry.rules);
      state.sessionRules[entry.behavior] =
        entry.operation === 'replace' ? [...entry.rules] : state.sessionRules[entry.behavior].filter((rule) => !remove.has(rule));
      break;
    }
    case 'directories-changed': {
      const current = state.directories ?? [];
      const next = entry.operation === 'add' ? [...current, ...entry.directories.filter((directory) => !current.includes(directory))] : current.filter((directory) => !entry.directories.includes(directory));
      if (next.length > 0) state.directories = next;
      else delete state.directories;
      break;
    }
    case 'tool-state':
      // null removes the key (a consumed record, a dropped checkpoint).
      if (entry.value === null || entry.value === undefined) delete state.toolState[entry.key];
      // A key `__proto__` is a key like any other, not the record's prototype.
      else setOwnField(state.toolState, entry.key, entry.value);
      break;
    case 'prefix':
      state.prefix = { system: entry.prefix.system.map((block) => ({ ...block })), toolNames: [...entry.prefix.toolNames] };
      break;
    case 'call-allowed':
      updateCall(state, entry.toolUseId, (call) => {
        call.state = 'allowed';
        call.input = entry.input;
        if (entry.heldUpdates?.length) call.heldUpdates = entry.heldUpdates;
        if (entry.note) call.note = entry.note;
        if (entry.hostAnswer && Object.keys(entry.hostAnswer).length > 0) call.hostAnswer = entry.hostAnswer;
        if (entry.mcpTool !== undefined) call.mcpTool = entry.mcpTool;
        clear(call, 'approval');
        clear(call, 'nested');
      });
      break;
    case 'call-reset':
      updateCall(state, entry.toolUseId, (call) => {
        if (call.state !== 'allowed') return;
        call.state = 'undecided';
        clear(call, 'input');
        clear(call, 'heldUpdates');
        clear(call, 'note');
        clear(call, 'hostAnswer');
      });
      break;
    case 'approval-pending':
      updateCall(state, entry.approval.toolUseId, (call) => {
        call.state = 'deferred';
        call.approval = entry.approval;
        clear(call, 'input');
        clear(call, 'heldUpdates');
        clear(call, 'note');
        clear(call, 'hostAnswer');
      });
      break;
    case 'call-suspended':
      updateCall(state, entry.toolUseId, (call) => {
        call.state = 'suspended';
        // A copy: the subagent's later entries change the nested state in place (foldEntries),
        // which must not change the entry the caller holds.
        call.nested = structuredClone(entry.nested);
      });
      break;
    case 'tool-result':
      updateCall(state, entry.toolUseId, (call) => {
        call.state = 'done';
        call.result = entry.result;
        clear(call, 'input');
        clear(call, 'heldUpdates');
        clear(call, 'note');
        clear(call, 'hostAnswer');
        clear(call, 'approval');
        clear(call, 'nested');
        // mcpTool stays: set when the call was made, it is kept until the batch closes (a cleared
        // field would be an undefined in a snapshot of a batch still open).
      });
      break;
    case 'context-reset':
      if (entry.request) state.contextReset = { ...entry.request };
      else delete state.contextReset;
      break;
    case 'checkpoint':
      return structuredClone(entry.state);
    case 'spill':
      state.spilled = { ...state.spilled, [entry.handle]: { ...entry.output } };
      break;
    case 'results-cleared':
      clearResults(state, entry.stubs);
      break;
    case 'compaction-pause':
      if (entry.resumesAt !== undefined) state.autoCompactionResumesAt = entry.resumesAt;
      else delete state.autoCompactionResumesAt;
      break;
    case 'answer-withheld':
      withholdRefusedAnswer(state, entry.note);
      break;
    default:
      // Audit and bookkeeping entries (permission decisions, resolved approvals, runs, plan
      // references, compaction boundaries) change no state.
      break;
  }
  return state;
}

/**
 * Replaces the content of the named tool results by their stubs. Changed messages are new
 * objects (a message handed out in an event or a run result is never changed under its holder).
 */
function clearResults(state: SessionState, stubs: ReadonlyArray<{ toolUseId: string; content: string }>): void {
  const byId = new Map(stubs.map((stub) => [stub.toolUseId, stub.content]));
  const cleared = (block: ContentBlock): block is ToolResultBlock => block.type === 'tool_result' && byId.has((block as ToolResultBlock).tool_use_id);
  // A new array: the history was rewritten, not appended to (measures over it start afresh).
  state.messages = state.messages.map((message) => {
    if (message.role !== 'user' || typeof message.content === 'string' || !message.content.some(cleared)) return message;
    return { role: 'user', content: message.content.map((block) => (cleared(block) ? { ...block, content: byId.get(block.tool_use_id)! } : block)) };
  });
}

/**
 * Ends a field of a call: set to undefined rather than deleted (JSON, snapshots and the stored
 * state leave undefined fields out). Deleting a field added before the last one turns the call
 * into a slow dictionary object, once per call per turn.
 */
function clear(call: BatchCall, field: 'input' | 'heldUpdates' | 'note' | 'hostAnswer' | 'approval' | 'nested'): void {
  if (call[field] !== undefined) call[field] = undefined;
}

function updateCall(state: SessionState, toolUseId: string, change: (call: BatchCall) => void): void {
  const call = state.openBatch?.calls.find((candidate) => candidate.toolUseId === toolUseId);
  if (call) change(call);
}

function blocksOf(message: Message): ContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content } as TextBlock] : message.content;
}

/**
 * Appends a message: a user message closes the open batch and takes the pending reminders with
 * it (the agent always opens a user message with them); an assistant message opens a batch for
 * its tool calls. A message of the same role as the last one joins it (results after an
 * interrupted batch, a continuation after `pause_turn`), so no two adjacent messages share a role.
 */
function appendMessage(state: SessionState, message: Message, usage: Usage | undefined, refused: boolean, mcpTools: Record<string, McpToolRecord> | undefined): void {
  const { messages } = state;
  const last = messages[messages.length - 1];
  if (message.role === 'user') {
    // The answers to a refused answer's calls keep the history ending on that refusal.
    // (Deleted only when set: a delete of a missing field is a runtime call on every turn.)
    if (state.endedOnRefusal !== undefined && state.openBatch?.refused !== true) delete state.endedOnRefusal;
    if (last?.role === 'user') messages[messages.length - 1] = { role: 'user', content: [...blocksOf(last), ...blocksOf(message)] };
    else {
      messages.push(message);
      state.messageUsage.push(null);
    }
    state.pendingReminders = [];
    delete state.openBatch;
    return;
  }
  let joined: AssistantMessage = message;
  if (last?.role === 'assistant') {
    joined = { role: 'assistant', content: [...last.content, ...message.content] };
    messages[messages.length - 1] = joined;
    const previous = state.messageUsage[messages.length - 1];
    if (usage) state.messageUsage[messages.length - 1] = previous ? sumUsage(previous, usage) : { ...usage };
  } else {
    messages.push(message);
    state.messageUsage.push(usage ? { ...usage } : null);
  }
  if (usage) state.lastUsage = { ...usage };
  openBatchFor(state, joined, mcpTools);
  if (refused) {
    state.endedOnRefusal = true;
    if (state.openBatch) state.openBatch.refused = true;
  } else if (state.endedOnRefusal !== undefined) delete state.endedOnRefusal;
}

/** The batch of an assistant message: calls already known keep their state, new ones are undecided. */
function openBatchFor(state: SessionState, message: AssistantMessage, mcpTools: Record<string, McpToolRecord> | undefined): void {
  const uses = message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
  if (uses.length === 0) {
    delete state.openBatch;
    return;
  }
  // A new answer (after a user message) has no batch yet: no calls to look up, and none to index.
  const open = state.openBatch?.calls;
  const known = open === undefined || open.length === 0 ? undefined : new Map(open.map((call) => [call.toolUseId, call]));
  const calls = uses.map((block): BatchCall => known?.get(block.id) ?? newCall(block, mcpTools));
  state.openBatch = { calls };
}

/**
 * An undecided call, with the MCP tool its name meant when it was made, read from the record's own
 * keys only (a stored `__proto__` key is a `tool_use` id like any other, never the prototype).
 */
function newCall(block: ToolUseBlock, mcpTools: Record<string, McpToolRecord> | undefined): BatchCall {
  const mcpTool = mcpTools !== undefined && Object.hasOwn(mcpTools, block.id) ? mcpTools[block.id] : undefined;
  if (mcpTool === undefined || mcpTool === null || typeof mcpTool !== 'object') return { toolUseId: block.id, toolName: block.name, state: 'undecided' };
  return { toolUseId: block.id, toolName: block.name, state: 'undecided', mcpTool: { ...mcpTool } };
}

function sumUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
  };
}
