import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, type Agent } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel } from 'agent-harness/testing';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const todo = [{ content: 'a', status: 'pending' as const, activeForm: 'A' }];

/** Each public way of changing a session, as a host would call it on a closed agent. */
const changes: Record<string, (agent: Agent) => unknown> = {
  setTodos: (agent) => agent.setTodos(todo),
  setPermissionMode: (agent) => agent.setPermissionMode('plan'),
  addRules: (agent) => agent.addRules({ deny: ['TodoWrite'] }),
  savePlan: (agent) => agent.savePlan('1. Write the intro.'),
  fork: (agent) => agent.fork(),
  compact: (agent) => agent.compact(),
  run: (agent) => agent.run('again'),
  continue: (agent) => agent.continue(),
  resolveApproval: (agent) => agent.resolveApproval('approval_x', { behavior: 'allow' }),
};

async function refusal(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('a closed agent changes nothing', () => {
  it('every change is refused, and the session another process resumes is as it was at close()', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'closed-agent-'));
    dirs.push(dir);
    const agent = createAgent({ model: scriptedModel(['Hello.']), store: fileSessionStore({ dir }) });
    expect((await agent.run('Hi').result).status).toBe('completed');
    await agent.close();
    // The lock is released at close(): another process may hold the session now, so a late
    // write from this object would be a second writer.
    const next = createAgent({ model: scriptedModel([]), store: fileSessionStore({ dir }), resume: agent.sessionId });
    await next.ready;
    const events: string[] = [];
    for (const type of ['todo-update', 'mode-change', 'permission-update'] as const) agent.on(type, () => events.push(type));
    for (const [name, change] of Object.entries(changes)) {
      const error = await refusal(() => change(agent));
      expect(ConfigurationError.isInstance(error), `${name}: ${String(error)}`).toBe(true);
      expect((error as Error).message, name).toContain('is closed');
    }
    expect(events).toEqual([]);
    expect(agent.todos).toEqual([]);
    expect(agent.permissionMode).toBe('default');
    expect(agent.plan).toBeUndefined();
    await next.close();
    const reread = createAgent({ model: scriptedModel([]), store: fileSessionStore({ dir }), resume: agent.sessionId });
    await reread.ready;
    expect(reread.todos).toEqual([]);
    expect(reread.permissionMode).toBe('default');
    expect(reread.plan).toBeUndefined();
    expect(reread.messages).toHaveLength(2);
    await reread.close();
  });

  it('what reads the session still works after close(): snapshot, messages, flush, interrupt, a second close', async () => {
    const agent = createAgent({ model: scriptedModel(['Hello.']) });
    await agent.run('Hi').result;
    await agent.close();
    const snapshot = agent.snapshot();
    expect(snapshot.messages).toHaveLength(2);
    expect(agent.messages).toHaveLength(2);
    await agent.flush();
    agent.interrupt();
    await agent.close();
    const resumed = createAgent({ model: scriptedModel(['Again.']), resume: snapshot });
    expect((await resumed.run('More').result).text).toBe('Again.');
    await resumed.close();
  });
});
