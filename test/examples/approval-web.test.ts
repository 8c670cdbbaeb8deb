/**
 * The approval web example in a real browser (Debian's chromium through playwright-core): the
 * server runs as a child process on the real Anthropic client, pointed at the loopback Messages
 * server playing a scripted conversation. Reject a plan, approve the revision, edit a tool input,
 * kill the server while an approval waits, restart it, and approve after a reload. Then a new
 * session: its own folder, and a todo list that does not claim a step whose edit failed.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, ToolResultBlock } from 'agent-harness';
import { toolCall, turn } from 'agent-harness/testing';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';
import { REPO_ROOT, startServerProcess, type ServerProcess } from './server-process.js';

const CHROMIUM = '/usr/bin/chromium';
const SCRIPT = 'examples/approval-web/server.ts';
const OUTPUT_DIR = join(REPO_ROOT, 'test-output');

const FIRST_PLAN = '## Goal\nShort meeting notes.\n\n## Steps\n1. Write `notes.md` with the decisions.';
const REVISED_PLAN = `${FIRST_PLAN}\n2. Write \`summary.md\`, a two-line summary.\n\n## Risks\n- None worth naming.`;
const FEEDBACK = 'Please add a short summary file as well.';
const SCRIPTED_NOTES = 'Draft notes from the model\n';
const EDITED_NOTES = '# Notes\n\nEdited in the browser before it was written.\n';
const SUMMARY = 'Two decisions: ship on Friday, and write the docs first.\n';

const todos = (first: string, second: string) => ({
  todos: [
    { content: 'Write the notes', activeForm: 'Writing the notes', status: first },
    { content: 'Write the summary', activeForm: 'Writing the summary', status: second },
  ],
});

const conversation = [
  turn('I will plan this first.', toolCall('ExitPlanMode', { plan: FIRST_PLAN }, 'toolu_plan_1')),
  turn('Thanks, I added the summary.', toolCall('ExitPlanMode', { plan: REVISED_PLAN }, 'toolu_plan_2')),
  turn('Plan approved; tracking it as todos.', toolCall('TodoWrite', todos('in_progress', 'pending'), 'toolu_todo_1')),
  turn('Writing the notes.', toolCall('Write', { file_path: 'notes.md', content: SCRIPTED_NOTES }, 'toolu_write_1')),
  turn(toolCall('TodoWrite', todos('completed', 'in_progress'), 'toolu_todo_2')),
  turn('Now the summary.', toolCall('Write', { file_path: 'summary.md', content: SUMMARY }, 'toolu_write_2')),
  turn(toolCall('TodoWrite', todos('completed', 'completed'), 'toolu_todo_3')),
  turn('All done: `notes.md` and `summary.md` are written.'),
];

function toolResults(messages: readonly Message[]): ToolResultBlock[] {
  return messages.flatMap((message) =>
    message.role === 'user' && typeof message.content !== 'string' ? (message.content.filter((block) => block.type === 'tool_result') as ToolResultBlock[]) : [],
  );
}

const resultFor = (messages: readonly Message[], id: string) => toolResults(messages).find((block) => block.tool_use_id === id);
const textOf = (block: ToolResultBlock | undefined) =>
  typeof block?.content === 'string' ? block.content : (block?.content ?? []).map((part) => ('text' in part ? part.text : '')).join('');

// Locally a machine without Chromium skips this file; in CI (which installs it) it must run.
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('examples/approval-web in headless Chromium', () => {
  let messagesServer: MessagesServer;
  let app: ServerProcess;
  let browser: Browser;
  let page: Page;
  let dataDir: string;
  const servers: ServerProcess[] = [];

  const startApp = async (port: number) => {
    const server = await startServerProcess({
      script: SCRIPT,
      env: { PORT: String(port), DATA_DIR: dataDir, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: messagesServer.url, ANTHROPIC_MODEL: 'claude-sonnet-4-6' },
    });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'approval-web-'));
    await mkdir(OUTPUT_DIR, { recursive: true });
    messagesServer = await startMessagesServer({ responses: conversation });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.setDefaultTimeout(15_000);
  });

  afterAll(async () => {
    await Promise.allSettled(servers.map((server) => server.stop('SIGKILL')));
    await browser?.close().catch(() => undefined);
    await messagesServer?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** The page's state, from the server. */
  const pageState = async () => (await (await fetch(`${app.url}/api/state`)).json()) as { sessionId: string; workspaceDir: string; todos: Array<{ status: string }> };

  it('plans, edits, survives a restart while an approval waits, and finishes', { timeout: 60_000 }, async () => {
    app = await startApp(0);
    try {
      await page.goto(app.url);
      await page.getByLabel('Prompt').fill('Write the meeting notes.');
      await page.getByRole('button', { name: 'Send', exact: true }).click();

      // The plan card: reject it with feedback.
      const firstPlan = page.locator('.plan-card', { hasText: 'Short meeting notes' });
      await firstPlan.waitFor();
      await firstPlan.getByRole('button', { name: 'Reject with feedback' }).click();
      await firstPlan.getByLabel('Feedback').fill(FEEDBACK);
      await firstPlan.getByRole('button', { name: 'Send feedback' }).click();

      // The revised plan: approve it, asking before each change afterwards.
      const revisedPlan = page.locator('.plan-card', { hasText: 'two-line summary' });
      await revisedPlan.waitFor();
      await page.screenshot({ path: join(OUTPUT_DIR, 'approval-web-plan.png'), fullPage: true, animations: 'disabled' });
      await revisedPlan.getByLabel('Mode after approval').selectOption('default');
      await revisedPlan.getByRole('button', { name: 'Approve plan' }).click();

      // The first write: the card shows what would be written as a diff, in plain words; the raw
      // input is one click away. Edit it before allowing it.
      const notesCard = page.locator('.tool-card[data-tool-name="Write"]', { hasText: 'notes.md' });
      await notesCard.waitFor();
      expect(await notesCard.locator('.display .title').textContent()).toBe('Create notes.md');
      expect(await notesCard.locator('.display .summary').textContent()).toBe('A new file of 1 line.');
      expect(await notesCard.locator('pre.diff .add').allTextContents()).toEqual(['+Draft notes from the model\n']);
      expect(await notesCard.locator('.tool-input').isVisible()).toBe(false);
      expect(await notesCard.getByRole('button', { name: 'Allow writing any file in this project' }).isVisible()).toBe(true);
      await page.screenshot({ path: join(OUTPUT_DIR, 'approval-web-card.png'), fullPage: true, animations: 'disabled' });
      await notesCard.getByRole('button', { name: 'Edit input' }).click();
      await notesCard.getByLabel('Edit the input (JSON)').fill(JSON.stringify({ file_path: 'notes.md', content: EDITED_NOTES }, null, 2));
      await notesCard.getByRole('button', { name: 'Allow edited input' }).click();

      // The second write waits: kill the server, start it again on the same data, reload.
      const summaryCard = page.locator('.tool-card[data-tool-name="Write"]', { hasText: 'summary.md' });
      await summaryCard.waitFor();
      await page.locator('#status[data-status="awaiting-approval"]').waitFor();
      const approvalId = await summaryCard.getAttribute('data-approval-id');
      await app.stop('SIGKILL');
      app = await startApp(app.port);
      await page.reload();
      await summaryCard.waitFor();
      expect(await summaryCard.getAttribute('data-approval-id')).toBe(approvalId);
      await page.screenshot({ path: join(OUTPUT_DIR, 'approval-web-after-restart.png'), fullPage: true, animations: 'disabled' });
      await summaryCard.getByRole('button', { name: 'Allow writing any file in this project' }).click();

      await page.locator('#status[data-status="completed"]').waitFor();
      await page.locator('#todo-progress', { hasText: '2 of 2 completed' }).waitFor();
      expect(await page.locator('#todos li.completed').count()).toBe(2);
      await page.locator('.msg-assistant', { hasText: 'All done' }).waitFor();
      await page.screenshot({ path: join(OUTPUT_DIR, 'approval-web.png'), fullPage: true, animations: 'disabled' });
    } catch (error) {
      await page.screenshot({ path: join(OUTPUT_DIR, 'approval-web-failure.png'), fullPage: true }).catch(() => undefined);
      throw new Error(`${(error as Error).message}\n--- server output ---\n${servers.map((server) => server.output()).join('\n---\n')}`, { cause: error });
    }

    // The files on disk, in the session's own folder: the edited input was written, not the model's.
    const { workspaceDir: workspace, sessionId } = await pageState();
    expect(workspace).toBe(join(dataDir, 'workspaces', sessionId));
    expect(await readFile(join(workspace, 'notes.md'), 'utf8')).toBe(EDITED_NOTES);
    expect(await readFile(join(workspace, 'summary.md'), 'utf8')).toBe(SUMMARY);

    // The model saw the feedback, then the approval, and the whole script was played.
    const { requests, errors } = messagesServer;
    expect(errors).toEqual([]);
    expect(messagesServer.pendingResponses).toBe(0);
    expect(requests).toHaveLength(conversation.length);
    const rejection = resultFor(requests[1]!.messages, 'toolu_plan_1');
    expect(rejection?.is_error).toBe(true);
    expect(textOf(rejection)).toContain(FEEDBACK);
    expect(resultFor(requests[2]!.messages, 'toolu_plan_2')?.is_error).toBeFalsy();

    // No tool ran twice: every call answered once in the final history, and run once by the log.
    const finalHistory = requests.at(-1)!.messages;
    const answered = toolResults(finalHistory).map((block) => block.tool_use_id);
    expect(answered.sort()).toEqual(['toolu_plan_1', 'toolu_plan_2', 'toolu_todo_1', 'toolu_todo_2', 'toolu_todo_3', 'toolu_write_1', 'toolu_write_2']);
    const log = (await readFile(join(dataDir, 'tool-log.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { toolUseId: string; isError: boolean });
    expect(log.map((entry) => entry.toolUseId).sort()).toEqual(['toolu_plan_2', 'toolu_todo_1', 'toolu_todo_2', 'toolu_todo_3', 'toolu_write_1', 'toolu_write_2']);
    expect(log.filter((entry) => entry.isError)).toEqual([]);
  });
  it('a new session works in its own folder, and its todo list does not claim a step that failed', { timeout: 60_000 }, async () => {
    const before = await pageState();
    const polish = { todos: [
      { content: 'Write the notes', activeForm: 'Writing the notes', status: 'completed' },
      { content: 'Polish the notes', activeForm: 'Polishing the notes', status: 'in_progress' },
    ] };
    const claim = { todos: polish.todos.map((todo) => ({ ...todo, status: 'completed' })) };
    const honest = { todos: polish.todos.map((todo, index) => ({ ...todo, status: index === 0 ? 'completed' : 'pending' })) };
    const secondSession = [
      turn('I will plan this first.', toolCall('ExitPlanMode', { plan: FIRST_PLAN }, 'toolu_plan_3')),
      turn(toolCall('TodoWrite', todos('in_progress', 'pending'), 'toolu_todo_4')),
      // The same file name as the first session: in a shared folder this write failed ("File has not been read yet").
      turn('Writing the notes.', toolCall('Write', { file_path: 'notes.md', content: SCRIPTED_NOTES }, 'toolu_write_3')),
      turn(toolCall('TodoWrite', polish, 'toolu_todo_5')),
      turn(toolCall('Edit', { file_path: 'notes.md', old_string: 'no such passage', new_string: 'x' }, 'toolu_edit_1')),
      turn(toolCall('TodoWrite', claim, 'toolu_todo_6')),
      turn(toolCall('TodoWrite', honest, 'toolu_todo_7')),
      turn('The notes are written; the polish did not apply.'),
    ];
    messagesServer.enqueue(...secondSession);
    const requestsBefore = messagesServer.requests.length;
    try {
      await page.getByRole('button', { name: 'New session' }).click();
      await page.locator('#status[data-status="no-session"]').waitFor({ state: 'attached' });
      await page.getByLabel('Prompt').fill('Write the meeting notes again.');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const plan = page.locator('.plan-card', { hasText: 'Short meeting notes' });
      await plan.waitFor();
      await plan.getByLabel('Mode after approval').selectOption('acceptEdits');
      await plan.getByRole('button', { name: 'Approve plan' }).click();
      await page.locator('#status[data-status="completed"]').waitFor();
      await page.locator('#todo-progress', { hasText: '1 of 2 completed' }).waitFor();
      await page.screenshot({ path: join(OUTPUT_DIR, 'approval-web-new-session.png'), fullPage: true, animations: 'disabled' });
    } catch (error) {
      await page.screenshot({ path: join(OUTPUT_DIR, 'approval-web-failure.png'), fullPage: true }).catch(() => undefined);
      throw new Error(`${(error as Error).message}\n--- server output ---\n${servers.map((server) => server.output()).join('\n---\n')}`, { cause: error });
    }
    const after = await pageState();
    expect(after.sessionId).not.toBe(before.sessionId);
    expect(after.workspaceDir).toBe(join(dataDir, 'workspaces', after.sessionId));
    expect(await readFile(join(after.workspaceDir, 'notes.md'), 'utf8')).toBe(SCRIPTED_NOTES);
    expect(await readFile(join(before.workspaceDir, 'notes.md'), 'utf8')).toBe(EDITED_NOTES);
    const history = messagesServer.requests.at(-1)!.messages;
    expect(messagesServer.requests.length - requestsBefore).toBe(secondSession.length);
    expect(resultFor(history, 'toolu_write_3')?.is_error).toBeFalsy();
    expect(resultFor(history, 'toolu_edit_1')?.is_error).toBe(true);
    expect(resultFor(history, 'toolu_todo_6')?.is_error).toBe(true);
    expect(textOf(resultFor(history, 'toolu_todo_6'))).toContain('cannot be marked completed, because the last Edit call failed');
    expect(after.todos.map((todo) => todo.status)).toEqual(['completed', 'pending']);
  });
  it('"Approve and start fresh" carries the plan out in a fresh context', { timeout: 60_000 }, async () => {
    const freshSession = [
      turn('I looked around; here is the plan.', toolCall('ExitPlanMode', { plan: FIRST_PLAN }, 'toolu_plan_fresh')),
      turn('Starting from the approved plan.'),
    ];
    messagesServer.enqueue(...freshSession);
    const requestsBefore = messagesServer.requests.length;
    try {
      await page.getByRole('button', { name: 'New session' }).click();
      await page.locator('#status[data-status="no-session"]').waitFor({ state: 'attached' });
      await page.getByLabel('Prompt').fill('Plan the meeting notes, then write them.');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const plan = page.locator('.plan-card', { hasText: 'Short meeting notes' });
      await plan.waitFor();
      await plan.getByRole('button', { name: 'Approve and start fresh' }).click();
      await page.locator('#status[data-status="completed"]').waitFor();
    } catch (error) {
      await page.screenshot({ path: join(OUTPUT_DIR, 'approval-web-failure.png'), fullPage: true }).catch(() => undefined);
      throw new Error(`${(error as Error).message}\n--- server output ---\n${servers.map((server) => server.output()).join('\n---\n')}`, { cause: error });
    }
    expect(messagesServer.requests.length - requestsBefore).toBe(freshSession.length);
    // The request after the approval: the plan opens a new history; the exploration is not sent.
    const fresh = JSON.stringify(messagesServer.requests.at(-1)!.messages);
    expect(fresh).toContain('Short meeting notes');
    expect(fresh).not.toContain('toolu_plan_fresh');
    expect(fresh).not.toContain('I looked around');
    expect(messagesServer.errors).toEqual([]);
  });
});
