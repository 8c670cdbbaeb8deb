// The page: one EventSource for the agent's events and state, one render function, and fetch
// calls for prompts and answers. No framework, no build step.
import { syncCards } from './cards.js';
import { renderMarkdown } from './markdown.js';

const $ = (id) => document.getElementById(id);
let state = null;
let suggestedPrompt = '';

const STATUS_TEXT = {
  'no-session': '',
  idle: 'Idle',
  running: 'Working…',
  'awaiting-approval': 'Waiting for you',
  completed: 'Done',
  interrupted: 'Stopped',
  error: 'Error',
};

async function postJson(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.ok) return undefined;
  const answer = await response.json().catch(() => ({}));
  return answer.error ?? `HTTP ${response.status}`;
}

const answerApproval = (id, body) => postJson(`/api/approvals/${encodeURIComponent(id)}`, body);

/** A tool call's input as a person reads it: each field by name, long text as it is (not JSON with \\n). */
function renderInput(input) {
  const box = document.createElement('div');
  box.className = 'tool-fields';
  for (const [key, value] of Object.entries(input ?? {})) {
    const field = document.createElement('div');
    const name = document.createElement('b');
    name.textContent = key;
    field.append(name);
    const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    if (text.includes('\n') || text.length > 80) {
      const pre = document.createElement('pre');
      pre.textContent = text;
      field.append(pre);
    } else field.append(` ${text}`);
    box.append(field);
  }
  return box;
}

function toolLine(item) {
  const li = document.createElement('li');
  const outcome = item.result === undefined ? 'waiting' : item.isError ? 'failed' : 'ok';
  li.className = `msg-tool ${outcome}`;
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  const target = item.input?.file_path ?? item.input?.pattern ?? item.input?.command ?? '';
  const planLabel = { ok: 'plan approved', failed: 'plan not approved', waiting: 'presented a plan' }[outcome];
  const todoLabel = outcome === 'failed' ? 'todo list not updated' : 'updated the todo list';
  const label = { ExitPlanMode: planLabel, TodoWrite: todoLabel }[item.toolName];
  summary.innerHTML = `<span class="icon">${{ ok: '✓', failed: '✗', waiting: '…' }[outcome]}</span><span><b></b> <span class="target"></span></span>`;
  summary.querySelector('b').textContent = item.toolName;
  summary.querySelector('.target').textContent = label ?? target;
  details.append(summary, renderInput(item.input));
  if (item.result !== undefined) {
    const result = document.createElement('pre');
    result.textContent = item.result;
    details.append(result);
  }
  li.append(details);
  return li;
}

function renderTranscript() {
  const list = $('transcript');
  list.replaceChildren(
    ...state.transcript.map((item) => {
      if (item.kind === 'tool') return toolLine(item);
      const li = document.createElement('li');
      li.className = item.kind === 'user' ? 'msg-user' : 'msg-assistant markdown';
      if (item.kind === 'user') li.textContent = item.text;
      else li.innerHTML = renderMarkdown(item.text);
      return li;
    }),
  );
  if (state.streaming) {
    const live = document.createElement('li');
    live.className = 'msg-assistant streaming';
    live.id = 'streaming';
    live.textContent = state.streaming;
    list.append(live);
  }
}

function renderTodos() {
  const done = state.todos.filter((todo) => todo.status === 'completed').length;
  const total = state.todos.length;
  $('todo-progress').textContent = total ? `${done} of ${total} completed` : 'No todos yet';
  $('todo-bar').style.width = total ? `${(100 * done) / total}%` : '0';
  $('todos').replaceChildren(
    ...state.todos.map((todo) => {
      const li = document.createElement('li');
      const label = document.createElement('span');
      label.textContent = todo.status === 'in_progress' ? todo.activeForm : todo.content;
      li.className = todo.status;
      li.append(label);
      return li;
    }),
  );
}

function render() {
  $('status').dataset.status = state.status;
  $('status').textContent = STATUS_TEXT[state.status] ?? state.status;
  $('mode').textContent = state.mode ? `mode: ${state.mode}` : '';
  renderTranscript();
  syncCards($('approvals'), state.approvals, answerApproval);
  renderTodos();
  $('plan-panel').hidden = !state.plan;
  if (state.plan) {
    $('plan-name').textContent = state.plan.name;
    $('plan').innerHTML = renderMarkdown(state.plan.text);
  }
  $('run-error').hidden = !state.error;
  $('run-error').textContent = state.error ? `The run failed: ${state.error}` : '';
  const busy = state.status === 'running' || state.approvals.length > 0;
  for (const control of $('prompt-form').elements) control.disabled = busy;
}

function onMessage(message) {
  if (message.type === 'hello') {
    $('offline').hidden = !message.offline;
    suggestedPrompt = message.suggestedPrompt;
  } else if (message.type === 'state') {
    state = message.state;
    if (state.status === 'no-session' && !$('prompt').value) $('prompt').value = suggestedPrompt;
    render();
  } else if ((message.type === 'text-delta' || message.type === 'stream-retry') && state) {
    // A stream-retry voids what the turn streamed so far: the retried turn streams its answer anew.
    state.streaming = message.type === 'stream-retry' ? '' : state.streaming + message.text;
    const live = $('streaming');
    if (live && state.streaming) live.textContent = state.streaming;
    else renderTranscript();
  }
}

function connect() {
  const events = new EventSource('/api/events');
  events.onopen = () => ($('connection').hidden = true);
  events.onerror = () => ($('connection').hidden = false);
  events.onmessage = (event) => onMessage(JSON.parse(event.data));
}

$('prompt-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const prompt = $('prompt').value.trim();
  if (!prompt) return;
  const problem = await postJson('/api/run', { prompt });
  if (problem) alert(problem);
  else $('prompt').value = '';
});

$('reset').addEventListener('click', () => postJson('/api/session/reset', {}).then((problem) => problem && alert(problem)));

connect();
