// Attack class: a compaction interrupted, crashed or raced, then resumed in a new agent instance
// on the same store (the file store and the server stores). A process killed with SIGKILL in the
// middle of the summary call, or right after the compaction boundary was stored, leaves a session
// that resumes with no message lost, no tool run twice, at most one whole boundary, the summary
// not asked for again once its boundary is stored, and requests the API takes. Two instances on
// one session while one compacts: the one that compacts on a stale revision (or a lost lease)
// loses cleanly with the documented error, and makes no model call on top of the refused boundary.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, LeaseLostError, ModelError, SessionConflictError, SessionLockedError, SessionWriteError, type SessionStore } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { runTsxChild } from '../process-helpers.js';
import { asksForSummary } from '../loop/context-model.js';
import { compactingContext } from './fixtures/compacting-context.js';
import { serverBackends } from './server-backends.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');

interface Backend {
  kind: 'file' | 'postgres' | 'redis';
  reachable: boolean;
  open: () => { where: string; namespace: string; stores: () => SessionStore; cleanup: () => Promise<void> };
}

const backends: Backend[] = [
  {
    kind: 'file',
    reachable: true,
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), 'attack-compaction-store-'));
      return { where: dir, namespace: '-', stores: () => fileSessionStore({ dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  ...serverBackends.map((server) => ({
    kind: server.kind,
    reachable: server.reachable,
    open: () => {
      const opened = server.open();
      return { where: server.url, namespace: opened.namespace, stores: opened.stores, cleanup: opened.cleanup };
    },
  })),
];

function probeTool(runs: string[]) {
  return defineTool({ name: 'probe', description: 'Probes.', inputSchema: z.object({}), readOnly: true, execute: ({ toolUseId }) => (runs.push(toolUseId), 'x'.repeat(40_000)) });
}

const checkpoints = (entries: readonly { kind: string; reason?: string }[]) => entries.filter((entry) => entry.kind === 'checkpoint' && entry.reason === 'compaction');

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

for (const backend of backends) {
  describe.skipIf(!backend.reachable)(`attack: a compaction killed with SIGKILL, resumed in a new agent (${backend.kind} store)`, () => {
    async function killed(mode: 'die-in-summary' | 'die-after-checkpoint') {
      const opened = backend.open();
      cleanups.push(opened.cleanup);
      const dir = mkdtempSync(join(tmpdir(), 'attack-compaction-marker-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const marker = join(dir, 'marker.txt');
      const sessionId = `compaction-${randomUUID()}`;
      const { signal, stdout } = await runTsxChild(join(here, 'fixtures/compact-and-die.child.ts'), [backend.kind, opened.where, opened.namespace, sessionId, marker, mode], root);
      expect(stdout).toBe('');
      expect(signal).toBe('SIGKILL');
      expect(readFileSync(marker, 'utf8')).toBe('probe\n');
      return { opened, sessionId, marker };
    }

    it('killed in the middle of the summary call: no boundary stored; the resumed agent compacts once, the tool never runs again', async () => {
      const { opened, sessionId, marker } = await killed('die-in-summary');
      const stored = await loadEntries(opened.stores(), sessionId);
      expect(checkpoints(stored)).toEqual([]);
      const runs: string[] = [];
      const model = scriptedModel(['<summary>Probed once.</summary>', 'Done.']);
      const resumed = createAgent({ model, tools: [probeTool(runs)], store: opened.stores(), resume: sessionId, context: compactingContext });
      await resumed.ready;
      const events: string[] = [];
      resumed.on('compaction-start', () => events.push('compaction-start'));
      resumed.on('compaction-end', (event) => events.push(event.error ? 'compaction-failed' : 'compaction-end'));
      // The call the child answered is answered, not open: its result is in the history.
      expect(validateMessagesRequest([...resumed.messages, { role: 'assistant', content: 'ok' }])).toBeUndefined();
      const result = await resumed.continue().result;
      expect(result.status).toBe('completed');
      expect(events).toEqual(['compaction-start', 'compaction-end']);
      expect(runs).toEqual([]);
      expect(readFileSync(marker, 'utf8')).toBe('probe\n');
      expect(model.requests.map((recorded) => asksForSummary(recorded.request))).toEqual([true, false]);
      for (const request of model.requests) expect(validateMessagesRequest(request.messages)).toBeUndefined();
      const after = await loadEntries(opened.stores(), sessionId);
      expect(checkpoints(after)).toHaveLength(1);
      // The prompt and the call are in the store's full history, summarized by the boundary.
      expect(JSON.stringify(after)).toContain('probe it');
      expect(JSON.stringify(resumed.messages)).toContain('Probed once.');
      await resumed.close();
    });

    it('killed right after the boundary was stored: the summary is not asked for again, the history starts from it', async () => {
      const { opened, sessionId, marker } = await killed('die-after-checkpoint');
      const stored = await loadEntries(opened.stores(), sessionId);
      // Stored before the next model call: the turn after a compaction never goes out on a boundary that might be lost.
      expect(checkpoints(stored)).toHaveLength(1);
      const runs: string[] = [];
      const model = scriptedModel(['Done.']);
      const resumed = createAgent({ model, tools: [probeTool(runs)], store: opened.stores(), resume: sessionId, context: compactingContext });
      await resumed.ready;
      expect(JSON.stringify(resumed.messages)).toContain('forty thousand x');
      const starts: unknown[] = [];
      resumed.on('compaction-start', (event) => starts.push(event));
      const result = await resumed.continue().result;
      expect(result.status).toBe('completed');
      expect(starts).toEqual([]);
      expect(model.requests).toHaveLength(1);
      expect(asksForSummary(model.requests[0]!.request)).toBe(false);
      expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
      expect(runs).toEqual([]);
      expect(readFileSync(marker, 'utf8')).toBe('probe\n');
      expect(checkpoints(await loadEntries(opened.stores(), sessionId))).toHaveLength(1);
      await resumed.close();
    });
  });
}

/** A model whose summary call waits until `release()`: the test acts while the compaction is under way. */
function compactingModel() {
  let arrived!: () => void;
  let release!: () => void;
  const summaryAsked = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const model = scriptedModel([
    turn(toolCall('probe', {}, 'toolu_probe'), { usage: { inputTokens: 1_000, outputTokens: 0 } }),
    async () => {
      arrived();
      await released;
      return turn('<summary>Probed once.</summary>');
    },
    'Done.',
  ]);
  return { model, summaryAsked, release };
}

for (const backend of backends) {
  describe.skipIf(!backend.reachable)(`attack: two instances on one session while one compacts (${backend.kind} store)`, () => {
    it.skipIf(backend.kind === 'file')('the other writes first: the compacting one fails with SessionConflictError, sends no turn on the refused boundary, and stores nothing', async () => {
      const opened = backend.open();
      cleanups.push(opened.cleanup);
      const runs: string[] = [];
      const first = compactingModel();
      const a = createAgent({ model: first.model, tools: [probeTool(runs)], store: opened.stores(), context: compactingContext });
      const events: string[] = [];
      a.on('compaction-start', () => events.push('compaction-start'));
      a.on('compaction-end', (event) => events.push(event.error ? `compaction-failed: ${event.error.name}` : 'compaction-end'));
      a.on('run-end', () => events.push('run-end'));
      const running = a.run('probe it');
      await first.summaryAsked;
      const b = createAgent({ model: scriptedModel(['Hi.']), tools: [probeTool(runs)], store: opened.stores(), resume: a.sessionId });
      expect((await b.run('hello').result).status).toBe('completed');
      first.release();
      const result = await running.result;
      expect(result.status).toBe('error');
      expect(SessionConflictError.isInstance(result.error)).toBe(true);
      // The host saw the compaction start, then fail (never succeed): the store holds the history before it.
      expect(events).toEqual(['compaction-start', `compaction-failed: ${result.error!.name}`, 'run-end']);
      // The summary call was paid for, and counted.
      expect(result.usage.outputTokens).toBeGreaterThan(0);
      // The tool turn and the summary call: no turn went out on the compacted history the store refused.
      expect(first.model.requests).toHaveLength(2);
      const stored = await loadEntries(opened.stores(), a.sessionId);
      expect(checkpoints(stored)).toEqual([]);
      const c = createAgent({ model: scriptedModel(['Still here.']), tools: [probeTool(runs)], store: opened.stores(), resume: a.sessionId });
      await c.ready;
      expect(JSON.stringify(c.messages)).toContain('hello');
      expect(JSON.stringify(c.messages)).toContain('Hi.');
      expect(validateMessagesRequest(c.messages)).toBeUndefined();
      expect(runs).toEqual(['toolu_probe']);
      await Promise.all([a.close().catch(() => undefined), b.close(), c.close()]);
    });

    it.runIf(backend.kind === 'file')('the other cannot write while the compacting one holds the session file: it fails with SessionWriteError (caused by SessionLockedError), and the compaction completes', async () => {
      const opened = backend.open();
      cleanups.push(opened.cleanup);
      const runs: string[] = [];
      const first = compactingModel();
      const a = createAgent({ model: first.model, tools: [probeTool(runs)], store: opened.stores(), context: compactingContext });
      const running = a.run('probe it');
      await first.summaryAsked;
      const bModel = scriptedModel(['Hi.']);
      const b = createAgent({ model: bModel, tools: [probeTool(runs)], store: opened.stores(), resume: a.sessionId });
      const other = await b.run('hello').result;
      expect(other.status).toBe('error');
      // The store's refusal, wrapped as every write failure that is not a conflict or a lost lease is.
      expect(SessionWriteError.isInstance(other.error)).toBe(true);
      expect(SessionLockedError.isInstance(other.error!.cause)).toBe(true);
      // Refused at its first write (the prompt): no model call was made on it.
      expect(bModel.requests).toHaveLength(0);
      first.release();
      expect((await running.result).status).toBe('completed');
      const stored = await loadEntries(opened.stores(), a.sessionId);
      expect(checkpoints(stored)).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain('hello');
      expect(runs).toEqual(['toolu_probe']);
      await Promise.all([a.close(), b.close().catch(() => undefined)]);
    });

    it.skipIf(backend.kind === 'file')('a reactive compaction ("prompt is too long") while the other writes first: SessionConflictError, and the refused turn is not sent again', async () => {
      const opened = backend.open();
      cleanups.push(opened.cleanup);
      const runs: string[] = [];
      let arrived!: () => void;
      let release!: () => void;
      const summaryAsked = new Promise<void>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      const model = scriptedModel([
        turn(toolCall('probe', {}, 'toolu_probe')),
        () => {
          throw new ModelError('prompt is too long: 250000 tokens > 200000 maximum', { status: 400, errorType: 'invalid_request_error' });
        },
        async () => {
          arrived();
          await released;
          return turn('<summary>Probed once.</summary>');
        },
        'Done.',
      ]);
      const a = createAgent({ model, tools: [probeTool(runs)], store: opened.stores() });
      const running = a.run('probe it');
      await summaryAsked;
      const b = createAgent({ model: scriptedModel(['Hi.']), tools: [probeTool(runs)], store: opened.stores(), resume: a.sessionId });
      expect((await b.run('hello').result).status).toBe('completed');
      release();
      const result = await running.result;
      expect(result.status).toBe('error');
      expect(SessionConflictError.isInstance(result.error)).toBe(true);
      expect(model.requests).toHaveLength(3);
      expect(checkpoints(await loadEntries(opened.stores(), a.sessionId))).toEqual([]);
      await Promise.all([a.close().catch(() => undefined), b.close()]);
    });

    it.skipIf(backend.kind === 'file')('agent.compact() while the other writes first: it rejects with SessionConflictError, and the store keeps what the other wrote', async () => {
      const opened = backend.open();
      cleanups.push(opened.cleanup);
      const runs: string[] = [];
      const a = createAgent({ model: scriptedModel([turn(toolCall('probe', {}, 'toolu_probe')), 'Probed.', async () => {
        await other;
        return turn('<summary>Probed once.</summary>');
      }]), tools: [probeTool(runs)], store: opened.stores() });
      let wrote!: () => void;
      const other = new Promise<void>((resolve) => (wrote = resolve));
      await a.run('probe it').result;
      const compacting = a.compact();
      const b = createAgent({ model: scriptedModel(['Hi.']), tools: [probeTool(runs)], store: opened.stores(), resume: a.sessionId });
      expect((await b.run('hello').result).status).toBe('completed');
      wrote();
      const failure = await compacting.then(() => undefined, (error: unknown) => error);
      expect(SessionConflictError.isInstance(failure)).toBe(true);
      const stored = await loadEntries(opened.stores(), a.sessionId);
      expect(checkpoints(stored)).toEqual([]);
      expect(JSON.stringify(stored)).toContain('Hi.');
      await Promise.all([a.close().catch(() => undefined), b.close()]);
    });

    it('the lease moves to another worker mid-summary: the compacting one fails with LeaseLostError, the new holder goes on', async () => {
      const opened = backend.open();
      cleanups.push(opened.cleanup);
      const leases = opened.stores().leases!;
      const sessionId = `compaction-race-${randomUUID()}`;
      const leaseA = (await leases.acquire(sessionId, { holder: 'worker-a', ttlMs: 600_000 }))!;
      const runs: string[] = [];
      const first = compactingModel();
      const a = createAgent({ model: first.model, tools: [probeTool(runs)], store: opened.stores(), sessionId, fencingToken: leaseA.fencingToken, context: compactingContext });
      const running = a.run('probe it');
      await first.summaryAsked;
      // Worker A's lease is gone (released here, as an expiry would end it); worker B takes the session.
      await leases.release(leaseA);
      const leaseB = (await leases.acquire(sessionId, { holder: 'worker-b', ttlMs: 600_000 }))!;
      const secondModel = scriptedModel(['<summary>Probed once, by B.</summary>', 'Hi.']);
      const b = createAgent({ model: secondModel, tools: [probeTool(runs)], store: opened.stores(), resume: sessionId, fencingToken: leaseB.fencingToken, context: compactingContext });
      expect((await b.run('hello').result).status).toBe('completed');
      first.release();
      const result = await running.result;
      expect(result.status).toBe('error');
      expect(LeaseLostError.isInstance(result.error)).toBe(true);
      expect(first.model.requests).toHaveLength(2);
      const stored = await loadEntries(opened.stores(), sessionId);
      // B's compaction only: one whole boundary, A's never.
      expect(checkpoints(stored)).toHaveLength(1);
      expect(JSON.stringify(checkpoints(stored))).toContain('by B');
      for (const request of secondModel.requests) expect(validateMessagesRequest(request.messages)).toBeUndefined();
      expect(runs).toEqual(['toolu_probe']);
      await Promise.all([a.close().catch(() => undefined), b.close()]);
    });
  });
}

for (const backend of backends) {
  describe.skipIf(!backend.reachable)(`attack: a compaction interrupted, resumed in a new agent (${backend.kind} store)`, () => {
    it('run.interrupt() in the summary call: nothing replaced or stored for it; the new agent compacts once and goes on', async () => {
      const opened = backend.open();
      cleanups.push(opened.cleanup);
      const runs: string[] = [];
      const first = compactingModel();
      const a = createAgent({ model: first.model, tools: [probeTool(runs)], store: opened.stores(), context: compactingContext });
      const ends: Array<{ error?: unknown; tokensAfter: number; tokensBefore: number }> = [];
      a.on('compaction-end', (event) => ends.push(event));
      const running = a.run('probe it');
      await first.summaryAsked;
      const before = a.contextUsage.tokens;
      a.interrupt();
      const result = await running.result;
      expect(result.status).toBe('interrupted');
      // One compaction-end, failed, that says the history is as it was.
      expect(ends).toHaveLength(1);
      expect(String(ends[0]!.error)).toMatch(/interrupted before the summary was written/);
      expect(ends[0]!.tokensAfter).toBe(ends[0]!.tokensBefore);
      expect(a.contextUsage.tokens).toBe(before);
      await a.close();
      expect(checkpoints(await loadEntries(opened.stores(), a.sessionId))).toEqual([]);

      const model = scriptedModel(['<summary>Probed once.</summary>', 'Done.']);
      const resumed = createAgent({ model, tools: [probeTool(runs)], store: opened.stores(), resume: a.sessionId, context: compactingContext });
      await resumed.ready;
      // Calibrated by the usage stored with the last answer, as the agent before the restart was
      // (the last answer's own size is estimated now, where it was reported then).
      expect(resumed.contextUsage.source).toBe('calibrated');
      expect(Math.abs(resumed.contextUsage.tokens - before) / before).toBeLessThan(0.02);
      const events: string[] = [];
      resumed.on('compaction-start', () => events.push('compaction-start'));
      resumed.on('compaction-end', (event) => events.push(event.error ? 'compaction-failed' : 'compaction-end'));
      const again = await resumed.continue().result;
      expect(again.status).toBe('completed');
      expect(events).toEqual(['compaction-start', 'compaction-end']);
      expect(model.requests.map((recorded) => asksForSummary(recorded.request))).toEqual([true, false]);
      for (const recorded of model.requests) expect(validateMessagesRequest(recorded.messages)).toBeUndefined();
      expect(resumed.contextUsage.tokens).toBeLessThan(before);
      expect(runs).toEqual(['toolu_probe']);
      expect(checkpoints(await loadEntries(opened.stores(), a.sessionId))).toHaveLength(1);
      await resumed.close();
    });
  });
}
