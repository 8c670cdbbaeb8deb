/**
 * The approval web server against a hostile or clumsy client, over loopback HTTP on the offline
 * demo model: two answers to one card at once, replays, answers the card never offered (a mode or
 * a rule it did not suggest, an edited input of the wrong shape), malformed and huge bodies, odd
 * approval ids. Exactly one answer takes effect; every other request gets a 4xx naming its problem.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from 'agent-harness';
import { demoModel, DEMO_PROMPT } from '../../examples/approval-web/demo-model.js';
import { startApprovalServer, type ApprovalServer } from '../../examples/approval-web/server.js';
import type { ViewState } from '../../examples/approval-web/view-state.js';

let dataDir: string;
let server: ApprovalServer;
let events: AbortController;
let states: ViewState[];
let waiters: Array<() => void>;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'approval-web-hostile-'));
  server = await startApprovalServer({ dataDir, model: demoModel() });
  states = [];
  waiters = [];
  events = new AbortController();
  const response = await fetch(`${server.url}/api/events`, { signal: events.signal });
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!frame.startsWith('data: ')) continue;
          const message = JSON.parse(frame.slice(6)) as { type: string; state?: ViewState };
          if (message.type === 'state') states.push(message.state!);
          for (const wake of waiters.splice(0)) wake();
        }
      }
    } catch {
      // aborted
    }
  })();
});
afterEach(async () => {
  events.abort();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The first state from the event stream (seen already or to come) that satisfies the predicate. */
async function stateWhere(predicate: (state: ViewState) => boolean): Promise<ViewState> {
  for (let seen = 0; ; ) {
    for (; seen < states.length; seen++) if (predicate(states[seen]!)) return states[seen]!;
    await new Promise<void>((wake) => waiters.push(wake));
  }
}

const post = async (path: string, body: unknown) => {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { error?: string; ok?: boolean } };
};

const waitingApproval = (state: ViewState) => state.status === 'awaiting-approval' && state.approvals.length > 0;

async function planCard(): Promise<PendingApproval> {
  expect((await post('/api/run', { prompt: DEMO_PROMPT })).status).toBe(202);
  const state = await stateWhere(waitingApproval);
  expect(state.approvals[0]!.reason.type).toBe('plan-approval');
  return state.approvals[0]!;
}

const approvePlan = { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'default', destination: 'session' }] };

describe('examples/approval-web against a hostile client', () => {
  it('two answers to one card at once: exactly one takes effect, the other gets 409; a replay gets 409 too', async () => {
    const plan = await planCard();
    const answers = await Promise.all([post(`/api/approvals/${plan.id}`, approvePlan), post(`/api/approvals/${plan.id}`, { behavior: 'deny', message: 'No.' })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(refused.body.error).toBe(`Approval ${plan.id} was already answered; this answer was not applied.`);
    const next = await stateWhere((state) => state.status !== 'running' && !state.approvals.some((approval) => approval.id === plan.id));
    expect(next.status).not.toBe('error');
    expect(next.error).toBeNull();
    const replay = await post(`/api/approvals/${plan.id}`, approvePlan);
    expect(replay).toEqual(refused);
  });

  it('refuses a mode or a rule the card never offered, even dressed up as the offered one', async () => {
    const plan = await planCard();
    const unoffered = [
      [{ type: 'setMode', mode: 'bypassPermissions', destination: 'session' }],
      [{ type: 'setMode', mode: 'default', destination: 'userSettings' }],
      [{ type: 'addRules', behavior: 'allow', rules: ['Bash'], destination: 'session' }],
      [{ type: 'setMode', mode: 'default', destination: 'session', behavior: 'allow', rules: ['Bash(*)'] }],
      'setMode',
      [null],
    ];
    for (const updatedPermissions of unoffered) {
      const answer = await post(`/api/approvals/${plan.id}`, { behavior: 'allow', updatedPermissions });
      expect(answer.status, JSON.stringify(updatedPermissions)).toBe(400);
      expect(answer.body.error).toMatch(/updatedPermissions/);
    }
    expect((await stateWhere(waitingApproval)).approvals.map((approval) => approval.id)).toEqual([plan.id]);
  });

  it('refuses an edited input the card does not allow: not an object, or a plan edit that changes more than the plan', async () => {
    const plan = await planCard();
    for (const updatedInput of ['rm -rf /', [1], null, 42, { ...(plan.input as object), plan: 7 }, { ...(plan.input as object), allowedPrompts: [{ tool: 'Bash', prompt: 'anything' }] }]) {
      const answer = await post(`/api/approvals/${plan.id}`, { ...approvePlan, updatedInput });
      expect(answer.status, JSON.stringify(updatedInput)).toBe(400);
      expect(answer.body.error).toMatch(/updatedInput/);
    }
    expect((await stateWhere(waitingApproval)).approvals.map((approval) => approval.id)).toEqual([plan.id]);
  });

  it('answers malformed bodies, wrong types and huge bodies with 400 or 413, the card still waiting', async () => {
    const plan = await planCard();
    for (const body of ['{"behavior":', '[]', '"allow"', { behavior: ['allow'] }, { behavior: 'deny', message: 5 }, { behavior: 'allow', clearContext: 'yes' }]) {
      const answer = await post(`/api/approvals/${plan.id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBeTruthy();
    }
    const huge = await post(`/api/approvals/${plan.id}`, { behavior: 'deny', message: 'x'.repeat(1_100_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatch(/1 MB/);
    const hugePrompt = await post('/api/run', { prompt: 'x'.repeat(1_100_000) });
    expect(hugePrompt.status).toBe(413);
    expect((await stateWhere(waitingApproval)).approvals.map((approval) => approval.id)).toEqual([plan.id]);
  });

  it('answers odd approval ids with 404 and touches nothing', async () => {
    const plan = await planCard();
    for (const id of ['..', '..%2F..%2Fcurrent-session.json', `${plan.id}%2F..`, 'x'.repeat(5000), encodeURIComponent('tööl_✓'), encodeURIComponent(`${plan.id}\u202e`)]) {
      const answer = await post(`/api/approvals/${id}`, approvePlan);
      expect(answer.status, id.slice(0, 40)).toBe(404);
    }
    expect((await stateWhere(waitingApproval)).approvals.map((approval) => approval.id)).toEqual([plan.id]);
  });
});
