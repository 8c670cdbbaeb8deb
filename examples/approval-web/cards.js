// Approval cards: a plan card for ExitPlanMode, a tool card for any other call. Cards are keyed by
// approval id and kept across state updates, so text being typed into them is never lost.
import { renderMarkdown } from './markdown.js';

const $ = (root, selector) => root.querySelector(selector);

function describeReason(reason) {
  const text = {
    default: 'needs your approval in this mode',
    mode: `asked by the "${reason.mode}" mode`,
    rule: `matches the ask rule ${reason.rule}`,
    'tool-check': 'the tool asks for approval',
    hook: `a ${reason.hookEvent} hook asks`,
    classifier: 'the reviewer could not decide',
  }[reason.type] ?? reason.type;
  return reason.message ? `${text}: ${reason.message}` : text;
}

/** The button text of an "always allow" suggestion: the runtime's plain words, else the rules. */
function describeSuggestion(update) {
  if (update.description) return update.description;
  if (update.type === 'addRules') return `Always allow ${update.rules.join(', ')}`;
  if (update.type === 'setMode') return `Allow and switch to ${update.mode}`;
  return 'Always allow';
}

/** A unified diff, one line per row, coloured by what it does. */
function renderDiff(diff) {
  const pre = document.createElement('pre');
  pre.className = 'diff';
  for (const line of diff.replace(/\n$/, '').split('\n')) {
    const row = document.createElement('span');
    row.className = line.startsWith('@@') ? 'hunk' : line.startsWith('+++') || line.startsWith('---') ? 'file' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'same';
    row.textContent = `${line}\n`;
    pre.append(row);
  }
  return pre;
}

/** What the call would do, from the tool's display: a title, a line in plain words, and a diff or a command. */
function renderDisplay(card, display) {
  const view = $(card, '.display');
  view.hidden = false;
  $(view, '.title').textContent = display.title;
  $(view, '.summary').textContent = display.summary;
  const body = $(view, '.body');
  if (display.body === undefined) return;
  if (display.bodyFormat === 'diff') body.replaceWith(renderDiff(display.body));
  else {
    body.textContent = display.bodyFormat === 'command' ? `$ ${display.body}` : display.body;
    body.classList.add(display.bodyFormat ?? 'text');
  }
  if (display.cwd) {
    const where = document.createElement('p');
    where.className = 'subtle cwd';
    where.textContent = `in ${display.cwd}`;
    view.append(where);
  }
}

/** Wires a card's answer: disables it while posting, shows the server's error if any. */
async function submit(card, post, body) {
  const error = $(card, ':scope > .error');
  error.hidden = true;
  card.setAttribute('aria-busy', 'true');
  for (const control of card.querySelectorAll('button, textarea, input, select')) control.disabled = true;
  const problem = await post(card.dataset.approvalId, body);
  if (!problem) return;
  card.removeAttribute('aria-busy');
  for (const control of card.querySelectorAll('button, textarea, input, select')) control.disabled = false;
  error.textContent = problem;
  error.hidden = false;
}

function planCard(approval, post) {
  const card = document.getElementById('plan-card').content.firstElementChild.cloneNode(true);
  const editor = $(card, '.plan-editor');
  const feedback = $(card, '.feedback');
  const approve = $(card, '[data-action=approve]');
  $(card, '.plan-text').innerHTML = renderMarkdown(approval.input.plan);
  editor.value = approval.input.plan;
  $(card, '[data-action=edit]').addEventListener('click', () => {
    editor.hidden = !editor.hidden;
    $(card, '.plan-text').hidden = !editor.hidden;
    approve.textContent = editor.hidden ? 'Approve plan' : 'Approve edited plan';
    if (!editor.hidden) editor.focus();
  });
  $(card, '[data-action=reject]').addEventListener('click', () => {
    feedback.hidden = !feedback.hidden;
    if (!feedback.hidden) $(feedback, 'textarea').focus();
  });
  // "Approve and start fresh" (clearContext): the next request holds the plan, not the exploration.
  const answer = (clearContext) => {
    const mode = $(card, 'select').value;
    const edited = !editor.hidden && editor.value.trim() !== approval.input.plan.trim();
    submit(card, post, {
      behavior: 'allow',
      ...(edited ? { updatedInput: { ...approval.input, plan: editor.value } } : {}),
      updatedPermissions: [{ type: 'setMode', mode, destination: 'session' }],
      ...(clearContext ? { clearContext: true } : {}),
    });
  };
  approve.addEventListener('click', () => answer(false));
  $(card, '[data-action=approve-fresh]').addEventListener('click', () => answer(true));
  $(card, '[data-action=send-feedback]').addEventListener('click', () => {
    const message = $(feedback, 'textarea').value.trim();
    if (message) submit(card, post, { behavior: 'deny', message: `The user rejected the plan. Their feedback: ${message}` });
  });
  return card;
}

function toolCard(approval, post) {
  const card = document.getElementById('tool-card').content.firstElementChild.cloneNode(true);
  const json = JSON.stringify(approval.input, null, 2);
  const editor = $(card, '.input-editor');
  const allow = $(card, '[data-action=allow]');
  const denyRow = $(card, '.deny-row');
  $(card, '.tool-name').textContent = approval.toolName;
  $(card, '.reason').textContent = describeReason(approval.reason);
  $(card, '.tool-input').textContent = json;
  // With a display, the raw input is one click away; without one it is all there is to show.
  if (approval.display) renderDisplay(card, approval.display);
  else $(card, '.raw-input').open = true;
  if (approval.blockedPath) {
    $(card, '.blocked').hidden = false;
    $(card, '.blocked').textContent = `Outside the workspace: ${approval.blockedPath}`;
  }
  editor.value = json;
  $(card, '[data-action=edit]').addEventListener('click', () => {
    editor.hidden = !editor.hidden;
    $(card, '.raw-input').hidden = !editor.hidden;
    allow.textContent = editor.hidden ? 'Allow' : 'Allow edited input';
    if (!editor.hidden) editor.focus();
  });
  allow.addEventListener('click', () => {
    if (editor.hidden) return submit(card, post, { behavior: 'allow' });
    let updatedInput;
    try {
      updatedInput = JSON.parse(editor.value);
    } catch (error) {
      $(card, ':scope > .error').textContent = `The input is not valid JSON: ${error.message}`;
      $(card, ':scope > .error').hidden = false;
      return;
    }
    submit(card, post, { behavior: 'allow', updatedInput });
  });
  $(card, '[data-action=deny]').addEventListener('click', () => {
    denyRow.hidden = !denyRow.hidden;
    if (!denyRow.hidden) $(denyRow, 'input').focus();
  });
  $(card, '[data-action=send-deny]').addEventListener('click', () => {
    const reason = $(denyRow, 'input').value.trim() || 'The user denied this call.';
    submit(card, post, { behavior: 'deny', message: reason });
  });
  for (const suggestion of approval.suggestions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.action = 'always-allow';
    button.textContent = describeSuggestion(suggestion);
    button.addEventListener('click', () => submit(card, post, { behavior: 'allow', updatedPermissions: [suggestion] }));
    $(card, '.suggestions').append(button);
  }
  return card;
}

/** Makes the container hold one card per pending approval, keeping existing cards as they are. */
export function syncCards(container, approvals, post) {
  const wanted = new Set(approvals.map((approval) => approval.id));
  for (const card of [...container.children]) if (!wanted.has(card.dataset.approvalId)) card.remove();
  for (const approval of approvals) {
    if (container.querySelector(`[data-approval-id="${CSS.escape(approval.id)}"]`)) continue;
    const card = approval.reason.type === 'plan-approval' ? planCard(approval, post) : toolCard(approval, post);
    card.dataset.approvalId = approval.id;
    card.dataset.toolName = approval.toolName;
    container.append(card);
  }
}
