/**
 * The approval web example without a browser: its session object on the offline demo model.
 * "New session" starts in a folder of its own (it used to reuse the workspace, so both writes
 * failed with "File has not been read yet" while the todo list said 2 of 2 completed), and the
 * todo list never claims work whose tool call failed.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, ModelError, type PendingApproval, type Todo } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { ApprovalSession } from '../../examples/approval-web/approval-session.js';
import { deferred } from '../helpers.js';
import { demoModel, DEMO_PROMPT } from '../../examples/approval-web/demo-model.js';
import { honestTodos } from '../../examples/approval-web/honest-todos.js';
import type { ViewState } from '../../examples/approval-web/view-state.js';

let dataDir: string;
let session: ApprovalSession;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'approval-web-sessions-'));
  session = await ApprovalSession.open({
    dataDir,
    workspacesDir: join(dataDir, 'workspaces'),
    tools: (cwd) => workspaceTools({ cwd }),
    agentOptions: { model: demoModel(), permissionMode: 'plan' },
  });
});
afterEach(async () => {
  await session.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Resolves with the first state (now or later) that satisfies the predicate. */
function stateWhere(predicate: (state: ViewState) => boolean): Promise<ViewState> {
  return new Promise((resolve) => {
    const check = (state: ViewState) => {
      if (!predicate(state)) return false;
      stop();
      resolve(state);
      return true;
    };
    const stop = session.subscribe((message) => {
      if (message.type === 'state') check(message.state);
    });
    check(session.state());
  });
}

const settled = (state: ViewState) => state.status !== 'running' && state.status !== 'no-session';

/** Answers every card until the run completes: the plan with `acceptEdits` off, each tool call by `answer`. */
async function work(answer: (approval: PendingApproval) => 'allow' | 'deny'): Promise<ViewState> {
  for (;;) {
    const state = await stateWhere(settled);
    const [approval] = state.approvals;
    if (!approval) return state;
    if (approval.reason.type === 'plan-approval') {
      session.answer(approval.id, { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'default', destination: 'session' }] });
    } else if (answer(approval) === 'allow') session.answer(approval.id, { behavior: 'allow' });
    else session.answer(approval.id, { behavior: 'deny', message: 'Not now.' });
    await stateWhere((next) => next.status === 'running' || !next.approvals.some((pending) => pending.id === approval.id));
  }
}

const statuses = (todos: readonly Todo[]) => todos.map((todo) => `${todo.content}: ${todo.status}`);

describe('examples/approval-web sessions', () => {
  it('"New session" starts in a folder of its own: the second session writes its files too', async () => {
    await session.prompt(DEMO_PROMPT);
    const first = await work(() => 'allow');
    expect(first.status).toBe('completed');
    expect(statuses(first.todos)).toEqual(['Write the brief: completed', 'Write the checklist: completed']);
    await session.reset();
    await session.prompt(DEMO_PROMPT);
    const second = await work(() => 'allow');
    expect(second.status).toBe('completed');
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.workspaceDir).not.toBe(first.workspaceDir);
    expect(statuses(second.todos)).toEqual(['Write the brief: completed', 'Write the checklist: completed']);
    const failures = second.transcript.filter((item) => item.kind === 'tool' && item.isError);
    expect(failures).toEqual([]);
    for (const state of [first, second]) expect(await readFile(join(state.workspaceDir!, 'brief.md'), 'utf8')).toContain('Elm Street');
  });

  it('a write the user declines stays open on the todo list, and the closing message says so', async () => {
    await session.prompt(DEMO_PROMPT);
    const done = await work((approval) => ((approval.input as { file_path: string }).file_path === 'brief.md' ? 'deny' : 'allow'));
    expect(statuses(done.todos)).toEqual(['Write the brief: pending', 'Write the checklist: completed']);
    const last = done.transcript.filter((item) => item.kind === 'assistant').at(-1);
    expect(last).toMatchObject({ text: expect.stringContaining('Not written (you declined, or the write failed): `brief.md`') });
  });

  it("a turn retried after a broken stream streams anew: the failed attempt's text is dropped", async () => {
    const overloaded = new ModelError('Overloaded.', { errorType: 'overloaded_error', retryable: true });
    const gate = deferred();
    const model = scriptedModel([turn('A broken start', { error: overloaded }), turn('The real answer.', { hold: () => gate.promise })], { chunkSize: 6 });
    const retrying = await ApprovalSession.open({ dataDir: join(dataDir, 'retrying'), workspacesDir: join(dataDir, 'retrying-workspaces'), tools: () => [], agentOptions: { model } });
    try {
      const messages: string[] = [];
      const held = new Promise<void>((resolve) =>
        retrying.subscribe((message) => {
          if (message.type !== 'state') messages.push(message.type);
          if (message.type === 'text-delta' && message.text === 'The re') resolve();
        }),
      );
      await retrying.prompt('go');
      await held; // the new attempt streamed its first piece and holds
      expect(messages.filter((type) => type === 'text-delta' || type === 'stream-retry')).toEqual(['text-delta', 'stream-retry', 'text-delta']);
      expect(retrying.state().streaming).toBe('The re');
      gate.resolve();
      const done = await new Promise<ViewState>((resolve) => {
        const check = (state: ViewState) => state.status === 'completed' && resolve(state);
        retrying.subscribe((message) => message.type === 'state' && check(message.state));
        check(retrying.state());
      });
      expect(done.streaming).toBe('');
      expect(done.transcript.filter((item) => item.kind === 'assistant')).toEqual([{ kind: 'assistant', text: 'The real answer.' }]);
    } finally {
      gate.resolve();
      await retrying.close();
    }
  });

  it('the approval cards carry a diff and plain words', async () => {
    await session.prompt(DEMO_PROMPT);
    let card: PendingApproval | undefined;
    await work((approval) => {
      card ??= approval;
      return 'allow';
    });
    expect(card!.display).toMatchObject({ title: 'Create brief.md', summary: 'A new file of 4 lines.', bodyFormat: 'diff' });
    expect(card!.display!.body).toContain('+# Elm Street Community Garden');
    expect(card!.suggestions.map((suggestion) => suggestion.description)).toContain('Allow writing any file in this project');
  });
});

describe('honestTodos', () => {
  it('refuses to mark an item completed right after a failed call, and lets the list be honest', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'honest-todos-'));
    try {
      const list = (second: 'pending' | 'completed') => ({
        todos: [
          { content: 'Write the notes', activeForm: 'Writing the notes', status: 'completed' },
          { content: 'Polish the notes', activeForm: 'Polishing the notes', status: second },
        ],
      });
      const model = scriptedModel([
        turn(toolCall('Write', { file_path: 'notes.md', content: 'Notes\n' }, 'toolu_write')),
        turn(toolCall('TodoWrite', list('pending'), 'toolu_todo_1')),
        turn(toolCall('Edit', { file_path: 'notes.md', old_string: 'no such text', new_string: 'x' }, 'toolu_edit')),
        turn(toolCall('TodoWrite', list('completed'), 'toolu_todo_2')),
        turn(toolCall('TodoWrite', list('pending'), 'toolu_todo_3')),
        'The notes are written; the polish did not apply.',
      ]);
      let agent: ReturnType<typeof createAgent> | undefined;
      agent = createAgent({ model, tools: workspaceTools({ cwd }), cwd, permissionMode: 'acceptEdits', hooks: { PreToolUse: [honestTodos(() => agent)] } });
      const result = await agent.run('Write and polish the notes.').result;
      expect(result.status).toBe('completed');
      expect(statuses(agent.todos)).toEqual(['Write the notes: completed', 'Polish the notes: pending']);
      const refused = model.requests[4]!.messages.at(-1)!;
      expect(JSON.stringify(refused.content)).toContain('Not updated: \\"Polish the notes\\" cannot be marked completed, because the last Edit call failed');
      // The first update, after a successful write, went through.
      expect(JSON.stringify(model.requests[2]!.messages.at(-1)!.content)).not.toContain('Not updated');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
