// Attack class: a second process killed with SIGKILL, on the server stores. The same attack as
// replay-and-crash.test.ts makes on the file store, with a real second process on PostgreSQL and
// Redis: killed inside the tool, the call is answered as interrupted on resume and never runs
// again; a process that loaded the session before another answered it cannot answer it again.
import { runTsxChild } from '../process-helpers.js';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { counting } from './counting-write.js';
import { serverBackends } from './server-backends.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');

const allow = { behavior: 'allow' } as const;

for (const server of serverBackends) {
  describe.skipIf(!server.reachable)(`attack: a second process killed with SIGKILL, on ${server.kind}`, () => {
    let dir: string;
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
      rmSync(dir, { recursive: true, force: true });
    });

    /** A session waiting on one approval of `write`, stored on the server. */
    async function waiting() {
      dir = mkdtempSync(join(tmpdir(), 'attack-kill-server-'));
      const opened = server.open();
      cleanup = opened.cleanup;
      const { tools } = counting();
      const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'from-the-child' }, 'toolu_w'))]), tools, store: opened.stores() });
      await agent.run('write').result;
      await agent.close();
      return { sessionId: agent.sessionId, opened, marker: join(dir, 'marker.txt') };
    }

    const runChild = (namespace: string, sessionId: string, marker: string, mode: 'die-in-tool' | 'answer') =>
      runTsxChild(join(here, 'fixtures/approve-and-die-on-a-server.child.ts'), [server.kind, server.url, namespace, sessionId, marker, mode], root);

    it('killed inside the tool: on resume the call is answered as interrupted, never run again', async () => {
      const { sessionId, opened, marker } = await waiting();
      const { signal } = await runChild(opened.namespace, sessionId, marker, 'die-in-tool');
      expect(signal).toBe('SIGKILL');
      expect(readFileSync(marker, 'utf8')).toBe('from-the-child\n');
      const { runs, tools } = counting();
      const model = scriptedModel(['noted']);
      const resumed = createAgent({ model, tools, store: opened.stores(), resume: sessionId });
      await resumed.ready;
      expect(resumed.pendingApprovals).toEqual([]);
      await resumed.run('what happened?').result;
      expect(runs).toEqual([]);
      expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
      expect(JSON.stringify(model.requests[0]!.messages)).toMatch(/interrupted before it finished/);
      // Nothing ran a second time anywhere: the child's one write is the only one.
      expect(readFileSync(marker, 'utf8')).toBe('from-the-child\n');
      await resumed.close();
    });

    it('the child answers and exits; this process, which loaded before, then answers: conflict, ran once', async () => {
      const { sessionId, opened, marker } = await waiting();
      const { runs, tools } = counting();
      const stale = createAgent({ model: scriptedModel(['ok']), tools, store: opened.stores(), resume: sessionId });
      await stale.ready;
      const id = stale.pendingApprovals[0]!.id;
      const child = await runChild(opened.namespace, sessionId, marker, 'answer');
      expect(JSON.parse(child.stdout.trim())).toMatchObject({ status: 'completed' });
      const late = await stale.resolveApproval(id, allow).result;
      expect(late.status).toBe('error');
      expect(late.error?.name).toMatch(/SessionConflictError|SessionWriteError/);
      expect(runs).toEqual([]);
      expect(readFileSync(marker, 'utf8')).toBe('from-the-child\n');
      await stale.close();
    });

    it('killed inside the tool, then resumed in two processes at once: neither runs it', async () => {
      const { sessionId, opened, marker } = await waiting();
      const { signal } = await runChild(opened.namespace, sessionId, marker, 'die-in-tool');
      expect(signal).toBe('SIGKILL');
      const { runs, tools } = counting();
      const agents = [0, 1].map(() => createAgent({ model: scriptedModel(['noted']), tools, store: opened.stores(), resume: sessionId }));
      const loaded = await Promise.allSettled(agents.map((agent) => agent.ready));
      // Each that loaded settles the interrupted call its own way; at most one write of that lands.
      for (const [index, outcome] of loaded.entries()) if (outcome.status === 'fulfilled') await agents[index]!.run('what happened?').result;
      expect(runs).toEqual([]);
      expect(existsSync(marker) && readFileSync(marker, 'utf8')).toBe('from-the-child\n');
      await Promise.all(agents.map((agent) => agent.close()));
    });
  });
}
