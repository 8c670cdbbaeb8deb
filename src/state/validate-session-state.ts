import { SnapshotInvalidError } from '../errors/snapshot-invalid-error.js';
import { PERMISSION_MODES } from '../types/permission.js';
import type { SessionState } from './session-state.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const describe = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const TODO_STATUSES = ['pending', 'in_progress', 'completed'];
const CALL_STATES = ['undecided', 'allowed', 'deferred', 'suspended', 'done'];
const USAGE_KEYS = ['inputTokens', 'outputTokens', 'cacheReadInputTokens', 'cacheCreationInputTokens'];

/** A number of tokens: finite and not negative. */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function fail(path: string, problem: string): never {
  throw new SnapshotInvalidError(path, problem);
}

function string(value: unknown, path: string, options: { empty?: boolean } = {}): string {
  if (typeof value !== 'string') fail(path, `expected a string, got ${describe(value)}`);
  if (!options.empty && value === '') fail(path, 'expected a non-empty string');
  return value;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, `expected an array, got ${describe(value)}`);
  return value;
}

function object(value: unknown, path: string): Json {
  if (!isObject(value)) fail(path, `expected an object, got ${describe(value)}`);
  return value;
}

function mode(value: unknown, path: string): void {
  if (!PERMISSION_MODES.includes(value as never)) fail(path, `expected one of ${PERMISSION_MODES.join(', ')}, got ${JSON.stringify(value)}`);
}

function usage(value: unknown, path: string): void {
  const counts = object(value, path);
  for (const key of USAGE_KEYS) {
    const count = counts[key];
    if (typeof count !== 'number' || !(count >= 0)) fail(`${path}.${key}`, `expected a count of tokens, got ${JSON.stringify(count)}`);
  }
}

const BODY_FORMATS = ['diff', 'command', 'markdown', 'text'];

/** An approval card's display: hosts render it as it is, so a loaded one must have its shape. */
function display(value: unknown, path: string): void {
  const shown = object(value, path);
  string(shown.title, `${path}.title`, { empty: true });
  string(shown.summary, `${path}.summary`, { empty: true });
  if (shown.body !== undefined) string(shown.body, `${path}.body`, { empty: true });
  if (shown.bodyFormat !== undefined && !BODY_FORMATS.includes(shown.bodyFormat as string)) {
    fail(`${path}.bodyFormat`, `expected one of ${BODY_FORMATS.map((format) => `"${format}"`).join(', ')}, got ${JSON.stringify(shown.bodyFormat)}`);
  }
  if (shown.file !== undefined) {
    const file = object(shown.file, `${path}.file`);
    string(file.path, `${path}.file.path`);
    if (file.before !== null) string(file.before, `${path}.file.before`, { empty: true });
    string(file.after, `${path}.file.after`, { empty: true });
  }
  if (shown.cwd !== undefined) string(shown.cwd, `${path}.cwd`);
}

function block(value: unknown, path: string): Json {
  const candidate = object(value, path);
  const type = string(candidate.type, `${path}.type`);
  if (type === 'text') string(candidate.text, `${path}.text`, { empty: true });
  if (type === 'tool_use') {
    const id = string(candidate.id, `${path}.id`);
    if (!TOOL_USE_ID.test(id)) fail(`${path}.id`, `"${id}" is not a tool_use id (letters, digits, _ and - only)`);
    string(candidate.name, `${path}.name`);
    object(candidate.input, `${path}.input`);
  }
  if (type === 'tool_result') {
    string(candidate.tool_use_id, `${path}.tool_use_id`);
    if (typeof candidate.content !== 'string' && candidate.content !== undefined) {
      array(candidate.content, `${path}.content`).forEach((entry, position) => block(entry, `${path}.content[${position}]`));
    }
    if (candidate.is_error !== undefined && typeof candidate.is_error !== 'boolean') fail(`${path}.is_error`, 'expected a boolean');
  }
  return candidate;
}

function messages(value: unknown, path: string): Json[] {
  return array(value, path).map((item, index) => messageAt(item, `${path}[${index}]`));
}

function messageAt(value: unknown, at: string): Json {
  const message = object(value, at);
  if (message.role !== 'user' && message.role !== 'assistant') fail(`${at}.role`, `expected "user" or "assistant", got ${JSON.stringify(message.role)}`);
  if (typeof message.content !== 'string') array(message.content, `${at}.content`).forEach((entry, position) => block(entry, `${at}.content[${position}]`));
  else if (message.role === 'assistant') fail(`${at}.content`, 'expected an array of content blocks');
  return message;
}

/**
 * Checks one message read from outside (a transcript entry): its role, and content that is a
 * string (a user's) or an array of well-formed blocks.
 * @throws SnapshotInvalidError naming the path and the problem.
 */
export function validateMessage(value: unknown, path = 'message'): void {
  messageAt(value, path);
}

function openBatch(value: unknown, state: Json, history: Json[], path: string): void {
  const batch = object(value, path);
  const last = history[history.length - 1];
  const uses = last?.role === 'assistant' ? (last.content as Json[]).filter((entry) => entry.type === 'tool_use') : [];
  if (uses.length === 0) fail(path, 'there is an open batch, but the history does not end with a model message that calls tools');
  if (batch.refused !== undefined && batch.refused !== true) fail(`${path}.refused`, `expected true or nothing, got ${JSON.stringify(batch.refused)}`);
  const calls = array(batch.calls, `${path}.calls`);
  if (calls.length !== uses.length) fail(`${path}.calls`, `expected ${uses.length} calls, one per tool_use of the last message, got ${calls.length}`);
  const ids = new Set<string>();
  calls.forEach((item, index) => {
    const at = `${path}.calls[${index}]`;
    const call = object(item, at);
    const use = uses[index]!;
    if (call.toolUseId !== use.id) fail(`${at}.toolUseId`, `expected "${String(use.id)}" (the tool_use in that place of the last message), got ${JSON.stringify(call.toolUseId)}`);
    if (call.toolName !== use.name) fail(`${at}.toolName`, `expected "${String(use.name)}" (the tool_use's name), got ${JSON.stringify(call.toolName)}`);
    if (ids.has(call.toolUseId as string)) fail(`${at}.toolUseId`, `"${String(call.toolUseId)}" appears twice`);
    ids.add(call.toolUseId as string);
    if (!CALL_STATES.includes(call.state as string)) fail(`${at}.state`, `expected one of ${CALL_STATES.join(', ')}, got ${JSON.stringify(call.state)}`);
    if ((call.state === 'allowed' || call.state === 'suspended') && !('input' in call)) fail(`${at}.input`, `a call that is ${String(call.state)} needs the input it runs with`);
    if ('input' in call && call.input !== undefined) object(call.input, `${at}.input`);
    if (call.state === 'deferred') {
      const approval = object(call.approval, `${at}.approval`);
      string(approval.id, `${at}.approval.id`);
      if (approval.toolUseId !== call.toolUseId) fail(`${at}.approval.toolUseId`, `expected "${String(call.toolUseId)}", got ${JSON.stringify(approval.toolUseId)}`);
      if (approval.toolName !== call.toolName) fail(`${at}.approval.toolName`, `expected "${String(call.toolName)}", got ${JSON.stringify(approval.toolName)}`);
      if (!('input' in approval)) fail(`${at}.approval.input`, 'a pending approval needs the input it would run with');
      object(approval.input, `${at}.approval.input`);
      object(approval.reason, `${at}.approval.reason`);
      array(approval.suggestions, `${at}.approval.suggestions`);
      if (approval.display !== undefined) display(approval.display, `${at}.approval.display`);
      if (approval.blockedPath !== undefined) string(approval.blockedPath, `${at}.approval.blockedPath`);
    }
    if (call.state === 'done') {
      const result = block(call.result, `${at}.result`);
      if (result.type !== 'tool_result' || result.tool_use_id !== call.toolUseId) fail(`${at}.result`, `expected the tool_result of "${String(call.toolUseId)}"`);
    }
    if (call.state === 'suspended') {
      const nested = object(call.nested, `${at}.nested`);
      string(nested.agentId, `${at}.nested.agentId`);
      validateSessionState(nested.state, `${at}.nested.state`);
    }
  });
  void state;
}

/**
 * Checks that a value is a well-formed `SessionState` (read from a snapshot or a nested call) and
 * that its parts agree: the open batch has exactly the calls of the last message, in order, with
 * the fields each call state needs. Never trusts: every field is checked before use.
 * @param path - where the value sits, for the error (e.g. `openBatch.calls[0].nested.state`).
 * @throws SnapshotInvalidError naming the path and the problem.
 */
export function validateSessionState(value: unknown, path = ''): asserts value is SessionState {
  const at = (field: string) => (path ? `${path}.${field}` : field);
  const state = object(value, path);
  string(state.sessionId, at('sessionId'));
  if (state.agentId !== undefined) string(state.agentId, at('agentId'));
  const history = messages(state.messages, at('messages'));
  const perMessage = array(state.messageUsage, at('messageUsage'));
  if (perMessage.length !== history.length) fail(at('messageUsage'), `expected one entry per message (${history.length}), got ${perMessage.length}`);
  perMessage.forEach((entry, index) => entry === null || usage(entry, `${at('messageUsage')}[${index}]`));
  if (state.lastUsage !== undefined) usage(state.lastUsage, at('lastUsage'));
  mode(state.permissionMode, at('permissionMode'));
  if (state.prePlanMode !== undefined) mode(state.prePlanMode, at('prePlanMode'));
  array(state.pendingReminders, at('pendingReminders')).forEach((entry, index) => string(entry, `${at('pendingReminders')}[${index}]`));
  array(state.todos, at('todos')).forEach((entry, index) => {
    const todo = object(entry, `${at('todos')}[${index}]`);
    string(todo.content, `${at('todos')}[${index}].content`);
    string(todo.activeForm, `${at('todos')}[${index}].activeForm`);
    if (!TODO_STATUSES.includes(todo.status as string)) fail(`${at('todos')}[${index}].status`, `expected one of ${TODO_STATUSES.join(', ')}, got ${JSON.stringify(todo.status)}`);
  });
  if (state.planSlug !== undefined) string(state.planSlug, at('planSlug'));
  if (state.plan !== undefined) {
    const plan = object(state.plan, at('plan'));
    string(plan.name, at('plan.name'));
    string(plan.text, at('plan.text'), { empty: true });
  }
  const rules = object(state.sessionRules, at('sessionRules'));
  for (const behavior of ['allow', 'deny', 'ask']) {
    array(rules[behavior], at(`sessionRules.${behavior}`)).forEach((rule, index) => string(rule, `${at(`sessionRules.${behavior}`)}[${index}]`));
  }
  object(state.toolState, at('toolState'));
  if (state.directories !== undefined) array(state.directories, at('directories')).forEach((entry, index) => string(entry, `${at('directories')}[${index}]`));
  if (state.prefix !== undefined) {
    const prefix = object(state.prefix, at('prefix'));
    array(prefix.system, at('prefix.system'));
    array(prefix.toolNames, at('prefix.toolNames')).forEach((name, index) => string(name, `${at('prefix.toolNames')}[${index}]`));
  }
  if (state.contextReset !== undefined) string(object(state.contextReset, at('contextReset')).plan, at('contextReset.plan'), { empty: true });
  if (state.spilled !== undefined) {
    for (const [handle, entry] of Object.entries(object(state.spilled, at('spilled')))) {
      const output = object(entry, `${at('spilled')}.${handle}`);
      string(output.toolUseId, `${at('spilled')}.${handle}.toolUseId`);
      string(output.toolName, `${at('spilled')}.${handle}.toolName`);
      string(output.text, `${at('spilled')}.${handle}.text`, { empty: true });
    }
  }
  if (state.compactions !== undefined && !(Number.isInteger(state.compactions) && (state.compactions as number) >= 0)) {
    fail(at('compactions'), `expected a count of compactions, got ${JSON.stringify(state.compactions)}`);
  }
  if (state.autoCompactionResumesAt !== undefined && !isTokenCount(state.autoCompactionResumesAt)) {
    fail(at('autoCompactionResumesAt'), `expected a count of tokens, got ${JSON.stringify(state.autoCompactionResumesAt)}`);
  }
  if (state.endedOnRefusal !== undefined && state.endedOnRefusal !== true) fail(at('endedOnRefusal'), `expected true or nothing, got ${JSON.stringify(state.endedOnRefusal)}`);
  if (state.openBatch !== undefined) openBatch(state.openBatch, state, history, at('openBatch'));
  else {
    // Calls in the last message with no batch to answer them would leave the history unanswered.
    const last = history[history.length - 1];
    const calls = last?.role === 'assistant' && Array.isArray(last.content) ? (last.content as Json[]).filter((entry) => entry.type === 'tool_use') : [];
    if (calls.length > 0) fail(at('openBatch'), `the last message calls tools (${calls.map((entry) => String(entry.id)).join(', ')}), but there is no open batch to answer them`);
  }
}
