// Attack class: replayed snapshots and a second process that dies (kill -9). Without a store or a
// claim function two copies of a snapshot are two sessions (documented: both run); with
// claimApproval a second answer never runs; a process killed mid-call never gets the call run
// again on resume.
import { runTsxChild } from '../process-helpers.js';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentHarnessError, ApprovalClaimedError, createAgent, type AgentSnapshot, type ClaimApprovalArgs } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { counting } from './counting-write.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

async function savedSnapshot(tools: ReturnType<typeof counting>['tools'], calls = 1): Promise<AgentSnapshot> {
  const agent = createAgent({ model: scriptedModel([turn(...Array.from({ length: calls }, (_, index) => toolCall('write', { text: `t${index}` }, `toolu_${index}`)))]), tools });
  await agent.run('write').result;
  return JSON.parse(JSON.stringify(agent.snapshot()));
}

/** A claim function backed by a unique key, like a database's. */
function uniqueKeyClaim() {
  const keys = new Set<string>();
  const calls: ClaimApprovalArgs[] = [];
  const claim = async (args: ClaimApprovalArgs) => {
    calls.push(args);
    await Promise.resolve();
    if (keys.has(args.approvalId)) return false;
    keys.add(args.approvalId);
    return true;
  };
  return { claim, calls };
}

const allow = { behavior: 'allow' } as const;

describe('attack: snapshots replayed twice', () => {
  it('without a store or a claim function, two copies are two sessions: the call runs in each (as documented)', async () => {
    const { runs, tools } = counting();
    const saved = await savedSnapshot(tools);
    for (let copy = 0; copy < 2; copy++) {
      const agent = createAgent({ model: scriptedModel(['ok']), tools, resume: structuredClone(saved) });
      await agent.resolveApproval(agent.pendingApprovals[0]!.id, allow).result;
    }
    expect(runs).toEqual(['t0', 't0']);
  });

  it('within one agent, an approval cannot be answered twice', async () => {
    const { runs, tools } = counting();
    const agent = createAgent({ model: scriptedModel(['ok', 'ok']), tools, resume: await savedSnapshot(tools) });
    const id = agent.pendingApprovals[0]!.id;
    await agent.resolveApproval(id, allow).result;
    expect(() => agent.resolveApproval(id, allow)).toThrow(AgentHarnessError);
    expect(runs).toEqual(['t0']);
  });

  it('with claimApproval, one after the other: the second copy gets ApprovalClaimedError, nothing runs', async () => {
    const { runs, tools } = counting();
    const { claim, calls } = uniqueKeyClaim();
    const saved = await savedSnapshot(tools);
    const one = createAgent({ model: scriptedModel(['ok']), tools, resume: structuredClone(saved), claimApproval: claim });
    const id = one.pendingApprovals[0]!.id;
    expect((await one.resolveApproval(id, allow).result).status).toBe('completed');
    const two = createAgent({ model: scriptedModel(['never']), tools, resume: structuredClone(saved), claimApproval: claim });
    const again = await two.resolveApproval(id, allow).result;
    expect(ApprovalClaimedError.isInstance(again.error)).toBe(true);
    expect(runs).toEqual(['t0']);
    expect(calls.map((call) => call.approvalId)).toEqual([id, id]);
    expect(calls[0]).toMatchObject({ sessionId: saved.sessionId, toolUseId: 'toolu_0' });
  });

  it.each([2, 5, 10])('with claimApproval, %i copies answer at once: the call runs once', async (copies) => {
    const { runs, tools } = counting();
    const { claim } = uniqueKeyClaim();
    const saved = await savedSnapshot(tools);
    const agents = Array.from({ length: copies }, () => createAgent({ model: scriptedModel(['ok']), tools, resume: structuredClone(saved), claimApproval: claim }));
    const id = agents[0]!.pendingApprovals[0]!.id;
    const results = await Promise.all(agents.map((agent) => agent.resolveApproval(id, allow).result));
    expect(results.filter((result) => result.status === 'completed')).toHaveLength(1);
    expect(results.filter((result) => ApprovalClaimedError.isInstance(result.error))).toHaveLength(copies - 1);
    expect(runs).toEqual(['t0']);
  });

  it('with claimApproval, a deny in one copy and an allow in another: the call never runs after the deny won', async () => {
    const { runs, tools } = counting();
    const { claim } = uniqueKeyClaim();
    const saved = await savedSnapshot(tools);
    const one = createAgent({ model: scriptedModel(['ok']), tools, resume: structuredClone(saved), claimApproval: claim });
    const two = createAgent({ model: scriptedModel(['ok']), tools, resume: structuredClone(saved), claimApproval: claim });
    const id = one.pendingApprovals[0]!.id;
    await one.resolveApproval(id, { behavior: 'deny', message: 'no' }).result;
    expect(ApprovalClaimedError.isInstance((await two.resolveApproval(id, allow).result).error)).toBe(true);
    expect(runs).toEqual([]);
  });

  it('with claimApproval, two approvals of one batch split between copies: each runs once', async () => {
    const { runs, tools } = counting();
    const { claim } = uniqueKeyClaim();
    const saved = await savedSnapshot(tools, 2);
    const one = createAgent({ model: scriptedModel(['ok']), tools, resume: structuredClone(saved), claimApproval: claim });
    const two = createAgent({ model: scriptedModel(['ok']), tools, resume: structuredClone(saved), claimApproval: claim });
    const [first, second] = one.pendingApprovals;
    await one.resolveApproval(first!.id, allow).result;
    expect(ApprovalClaimedError.isInstance((await two.resolveApproval(first!.id, allow).result).error)).toBe(true);
    await one.resolveApproval(second!.id, allow).result;
    expect(ApprovalClaimedError.isInstance((await two.resolveApproval(second!.id, allow).result).error)).toBe(true);
    expect(runs).toEqual(['t0', 't1']);
  });

  it('a claim function that throws: nothing runs, the run ends with an error naming it', async () => {
    const { runs, tools } = counting();
    const agent = createAgent({
      model: scriptedModel(['ok']),
      tools,
      resume: await savedSnapshot(tools),
      claimApproval: () => {
        throw new Error('database unreachable');
      },
    });
    const result = await agent.resolveApproval(agent.pendingApprovals[0]!.id, allow).result;
    expect(result.status).toBe('error');
    expect(String(result.error)).toMatch(/database unreachable/);
    expect(runs).toEqual([]);
  });

  it.each([
    ['a query result object (truthy, whatever happened)', { rowCount: 0 }],
    ['the string "false"', 'false'],
    ['1', 1],
    ['undefined', undefined],
    ['null', null],
  ])('a claim function that returns %s instead of a boolean fails closed: nothing runs', async (_name, value) => {
    const { runs, tools } = counting();
    const saved = await savedSnapshot(tools);
    for (let copy = 0; copy < 2; copy++) {
      const agent = createAgent({ model: scriptedModel(['ok']), tools, resume: structuredClone(saved), claimApproval: (() => value) as never });
      const result = await agent.resolveApproval(agent.pendingApprovals[0]!.id, allow).result;
      expect(result.status).toBe('error');
    }
    expect(runs).toEqual([]);
  });
});

describe('attack: a second process killed with SIGKILL', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const runChild = (sessionId: string, marker: string, mode: string) => runTsxChild(join(here, 'fixtures/approve-and-die.child.ts'), [dir, sessionId, marker, mode], root);

  async function waiting() {
    dir = mkdtempSync(join(tmpdir(), 'attack-kill-'));
    const { tools } = counting();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'from-the-child' }, 'toolu_w'))]), tools, store: fileSessionStore({ dir }) });
    await agent.run('write').result;
    await agent.close();
    return agent.sessionId;
  }

  it('killed inside the tool: on resume the call is answered as interrupted, never run again', async () => {
    const sessionId = await waiting();
    const marker = join(dir, 'marker.txt');
    const { signal } = await runChild(sessionId, marker, 'die-in-tool');
    expect(signal).toBe('SIGKILL');
    expect(readFileSync(marker, 'utf8')).toBe('from-the-child\n');
    const { runs, tools } = counting();
    const model = scriptedModel(['noted']);
    const resumed = createAgent({ model, tools, store: fileSessionStore({ dir }), resume: sessionId });
    await resumed.ready;
    expect(resumed.pendingApprovals).toEqual([]);
    await resumed.run('what happened?').result;
    expect(runs).toEqual([]);
    expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
    expect(JSON.stringify(model.requests[0]!.messages)).toMatch(/interrupted before it finished/);
    await resumed.close();
  });

  it('killed right after the claim, before the answer was stored: the approval is still pending, nothing ran', async () => {
    const sessionId = await waiting();
    const marker = join(dir, 'marker.txt');
    const { signal } = await runChild(sessionId, marker, 'die-after-claim');
    expect(signal).toBe('SIGKILL');
    expect(existsSync(marker)).toBe(false);
    const { runs, tools } = counting();
    const resumed = createAgent({ model: scriptedModel(['ok']), tools, store: fileSessionStore({ dir }), resume: sessionId });
    await resumed.ready;
    expect(resumed.pendingApprovals).toHaveLength(1);
    await resumed.resolveApproval(resumed.pendingApprovals[0]!.id, allow).result;
    expect(runs).toEqual(['from-the-child']);
    await resumed.close();
  });

  it('the child answers and exits; the parent, which loaded before, then answers: conflict, ran once', async () => {
    const sessionId = await waiting();
    const { runs, tools } = counting();
    const stale = createAgent({ model: scriptedModel(['ok']), tools, store: fileSessionStore({ dir }), resume: sessionId });
    await stale.ready;
    const id = stale.pendingApprovals[0]!.id;
    const marker = join(dir, 'marker.txt');
    const child = await runChild(sessionId, marker, 'answer');
    expect(JSON.parse(child.stdout.trim())).toMatchObject({ status: 'completed' });
    const late = await stale.resolveApproval(id, allow).result;
    expect(late.status).toBe('error');
    expect(runs).toEqual([]);
    expect(readFileSync(marker, 'utf8')).toBe('from-the-child\n');
    await stale.close();
  });
});
