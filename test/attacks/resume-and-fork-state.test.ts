// Attack class: "Sessions: resume and fork" as the README writes it — a session resumed from a
// file store in a second agent gets back its messages, mode, todos, plan, session rules and
// pending approvals; a fork ({ upTo }) has its own id, history and plan, and what it changes
// (rules, mode, todos, plan) never reaches the session it came from, nor the other way round.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type CanUseTool } from 'agent-harness';
import { filePlanStore, fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'resume-fork-'));
  dirs.push(dir);
  return dir;
};

let runs = 0;
const send = defineTool({ name: 'send', description: 'Sends.', inputSchema: z.object({ to: z.string() }), execute: ({ input }) => (runs++, `sent to ${input.to}`) });
const tools = [send];

describe('attack: what a resumed session and its fork get back', () => {
  it('rules, mode, todos, plan and a pending approval come back from the file store; the fork keeps its own copies', async () => {
    const dir = tempDir();
    const store = fileSessionStore({ dir: join(dir, 'sessions') });
    const planStore = filePlanStore({ dir: join(dir, 'plans') });
    runs = 0;
    // First run: the plan is approved, "always allow send(to=team)" is given for the session, a todo list is written.
    const approve: CanUseTool = (name, _input, context) =>
      context.reason.type === 'plan-approval'
        ? { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] }
        : name === 'send'
          ? { behavior: 'allow', updatedPermissions: [{ type: 'addRules', behavior: 'allow', rules: ['send'], destination: 'session' }] }
          : { behavior: 'defer' };
    const first = createAgent({
      model: scriptedModel([
        turn(toolCall('ExitPlanMode', { plan: '1. Send the note' }, 'toolu_plan')),
        turn(toolCall('TodoWrite', { todos: [{ content: 'Send the note', status: 'in_progress', activeForm: 'Sending the note' }] }, 'toolu_todo')),
        turn(toolCall('send', { to: 'team' }, 'toolu_send1')),
        'Sent.',
      ]),
      tools,
      store,
      planStore,
      permissionMode: 'plan',
      canUseTool: approve,
    });
    expect((await first.run('Plan and send.').result).status).toBe('completed');
    expect(runs).toBe(1);
    await first.close();

    // A second agent, no canUseTool (anything asked would be parked): the rule allows send at once.
    const again = createAgent({
      model: scriptedModel([turn(toolCall('send', { to: 'boss' }, 'toolu_send2')), 'Sent again.']),
      tools,
      store: fileSessionStore({ dir: join(dir, 'sessions') }),
      planStore: filePlanStore({ dir: join(dir, 'plans') }),
      resume: first.sessionId,
    });
    await again.ready;
    expect(again.messages).toEqual(first.messages);
    expect(again.permissionMode).toBe('acceptEdits');
    expect(again.todos).toEqual(first.todos);
    expect(again.plan).toEqual(first.plan);
    const second = await again.run('Send it to the boss too.').result;
    expect(second.status).toBe('completed');
    expect(runs).toBe(2);

    // The fork, up to the first three messages: its own id, its own plan name, the same text.
    const fork = await again.fork({ upTo: 3 }); // the prompt, the ExitPlanMode call and its result
    expect(fork.sessionId).not.toBe(again.sessionId);
    expect(fork.messages).toEqual(again.messages.slice(0, 3));
    expect(fork.plan?.text).toBe(again.plan?.text);
    expect(fork.plan?.name).not.toBe(again.plan?.name);
    expect(fork.todos).toEqual(again.todos);
    expect(fork.permissionMode).toBe('acceptEdits');
    // What the fork changes stays its own.
    fork.setPermissionMode('plan');
    fork.setTodos([]);
    await fork.savePlan('A different plan.');
    expect(again.permissionMode).toBe('acceptEdits');
    expect(again.todos).toHaveLength(1);
    expect(again.plan?.text).toBe('1. Send the note');
    expect(await filePlanStore({ dir: join(dir, 'plans') }).read(again.plan!.name)).toBe('1. Send the note');
    await fork.close();
    await again.close();

    // Both resume as they were left.
    const forkAgain = createAgent({ model: scriptedModel([]), tools, store: fileSessionStore({ dir: join(dir, 'sessions') }), planStore: filePlanStore({ dir: join(dir, 'plans') }), resume: fork.sessionId });
    await forkAgain.ready;
    expect(forkAgain.permissionMode).toBe('plan');
    expect(forkAgain.todos).toEqual([]);
    expect(forkAgain.plan?.text).toBe('A different plan.');
    const original = createAgent({ model: scriptedModel([]), tools, store: fileSessionStore({ dir: join(dir, 'sessions') }), planStore: filePlanStore({ dir: join(dir, 'plans') }), resume: again.sessionId });
    await original.ready;
    expect(original.permissionMode).toBe('acceptEdits');
    expect(original.todos).toHaveLength(1);
    expect(original.plan?.text).toBe('1. Send the note');
    await forkAgain.close();
    await original.close();
  });

  it('a pending approval comes back in another agent, is answered there once, and a fork of the waiting session has its own', async () => {
    const dir = tempDir();
    runs = 0;
    const first = createAgent({ model: scriptedModel([turn(toolCall('send', { to: 'team' }, 'toolu_send'))]), tools, store: fileSessionStore({ dir }) });
    expect((await first.run('Send.').result).status).toBe('awaiting-approval');
    const parked = first.pendingApprovals[0]!;
    await first.close();

    const again = createAgent({ model: scriptedModel(['Sent.']), tools, store: fileSessionStore({ dir }), resume: first.sessionId });
    await again.ready;
    expect(again.pendingApprovals.map((approval) => approval.toolUseId)).toEqual([parked.toolUseId]);
    const fork = await again.fork();
    expect(fork.pendingApprovals).toHaveLength(1);
    expect(fork.pendingApprovals[0]!.id).not.toBe(parked.id);
    const answered = await again.resolveApproval(parked.id, { behavior: 'allow' }).result;
    expect(answered.status).toBe('completed');
    expect(runs).toBe(1);
    // The fork's copy still waits: answering the source did not answer it.
    expect(fork.pendingApprovals).toHaveLength(1);
    await fork.close();
    await again.close();
  });
});
