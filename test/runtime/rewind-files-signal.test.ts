import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, recordFileCheckpoint, type Agent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

// agent.rewindFiles({ signal }) stops between files: the file being put back is finished (never
// left half-written), the ones not reached are reported as not restored, and their checkpoints
// stay for a later rewind. agent.interrupt() and agent.close() stop it too; close() waits for it.

const NAMES = ['a.md', 'b.md', 'c.md', 'd.md'];

/** Files in memory, changed by a `Put` tool that keeps checkpoints; each restore waits for the test to let it finish. */
function workspace() {
  const files = new Map<string, string>(NAMES.map((name) => [name, `old ${name}`]));
  const restoring: Array<{ path: string; started: ReturnType<typeof deferred<void>>; finish: ReturnType<typeof deferred<void>> }> = NAMES.map((path) => ({ path, started: deferred(), finish: deferred() }));
  const put = defineTool({
    name: 'Put',
    description: 'Replaces a file.',
    inputSchema: z.object({ path: z.string(), content: z.string() }),
    kind: 'edit',
    execute: ({ input, agent, toolUseId }) => {
      const before = files.get(input.path);
      recordFileCheckpoint(agent.toolState, { toolUseId, toolName: 'Put', path: input.path, before: before === undefined ? null : { base64: Buffer.from(before).toString('base64'), bytes: before.length } });
      files.set(input.path, input.content);
      return 'put';
    },
    restoreFile: async ({ path, content }) => {
      const step = restoring.find((candidate) => candidate.path === path)!;
      step.started.resolve();
      await step.finish.promise;
      if (content === null) files.delete(path);
      else files.set(path, Buffer.from(content, 'base64').toString());
    },
  });
  return { files, restoring, put };
}

async function edited(): Promise<{ agent: Agent } & ReturnType<typeof workspace>> {
  const space = workspace();
  const model = scriptedModel([turn(...NAMES.map((path) => toolCall('Put', { path, content: `new ${path}` }))), 'Done.', 'ok']);
  const agent = createAgent({ model, tools: [space.put], permissionMode: 'acceptEdits' });
  expect((await agent.run('Rewrite the files.').result).status).toBe('completed');
  for (const name of NAMES) expect(space.files.get(name)).toBe(`new ${name}`);
  return { agent, ...space };
}

describe('stopping agent.rewindFiles', () => {
  it('its signal stops it between files: the file under way is finished, the rest are reported as not restored and can be rewound later', async () => {
    const { agent, files, restoring } = await edited();
    const controller = new AbortController();
    const rewinding = agent.rewindFiles({ toMessage: 0, signal: controller.signal });
    restoring[0]!.finish.resolve();
    await restoring[1]!.started.promise;
    // Aborted while b.md is being written: b.md is finished, c.md and d.md are not started.
    controller.abort();
    // Every later restore would go through at once: only the stop keeps c.md and d.md as they are.
    for (const step of restoring) step.finish.resolve();
    const result = await rewinding;
    expect(result.interrupted).toBe(true);
    expect(result.restored.map((file) => file.path)).toEqual(['a.md', 'b.md']);
    expect(result.skipped).toEqual([
      { path: 'c.md', reason: expect.stringMatching(/stopped before/) },
      { path: 'd.md', reason: expect.stringMatching(/stopped before/) },
    ]);
    expect([...files.values()]).toEqual(['old a.md', 'old b.md', 'new c.md', 'new d.md']);
    // The model is told about the files put back only.
    const reminder = JSON.stringify(agent.snapshot().pendingReminders);
    expect(reminder).toContain('b.md');
    expect(reminder).not.toContain('c.md');
    // What was not reached can still be rewound.
    const rest = await agent.rewindFiles({ toMessage: 0 });
    expect(rest).toEqual({ restored: [expect.objectContaining({ path: 'c.md' }), expect.objectContaining({ path: 'd.md' })], skipped: [], interrupted: false });
    expect([...files.values()]).toEqual(NAMES.map((name) => `old ${name}`));
  });

  it('an aborted signal restores nothing, also in a dry run; a signal that is not an AbortSignal is refused', async () => {
    const { agent, files } = await edited();
    for (const dryRun of [false, true]) {
      const result = await agent.rewindFiles({ toMessage: 0, dryRun, signal: AbortSignal.abort() });
      expect(result.interrupted).toBe(true);
      expect(result.restored).toEqual([]);
      expect(result.skipped.map((file) => file.path)).toEqual(NAMES);
    }
    expect([...files.values()]).toEqual(NAMES.map((name) => `new ${name}`));
    await expect(agent.rewindFiles({ toMessage: 0, signal: 'stop' as never })).rejects.toThrow(ConfigurationError);
    await expect(agent.rewindFiles({ toMessage: 0, signal: 'stop' as never })).rejects.toThrow(/`signal` must be an AbortSignal/);
  });

  it('takes a signal shaped like an AbortSignal from elsewhere (a polyfill, another realm)', async () => {
    const { agent, files } = await edited();
    const foreign = { aborted: true, reason: 'stop', addEventListener: () => {}, removeEventListener: () => {} };
    const result = await agent.rewindFiles({ toMessage: 0, signal: foreign as unknown as AbortSignal });
    expect(result.interrupted).toBe(true);
    expect(result.restored).toEqual([]);
    expect([...files.values()]).toEqual(NAMES.map((name) => `new ${name}`));
    await expect(agent.rewindFiles({ toMessage: 0, signal: null as never })).rejects.toThrow(/`signal` must be an AbortSignal .*got null/);
  });

  it('agent.interrupt() stops it between files', async () => {
    const { agent, files, restoring } = await edited();
    const rewinding = agent.rewindFiles({ toMessage: 0 });
    await restoring[0]!.started.promise;
    agent.interrupt();
    for (const step of restoring) step.finish.resolve();
    const result = await rewinding;
    expect(result).toMatchObject({ interrupted: true, restored: [{ path: 'a.md' }] });
    expect(result.skipped).toHaveLength(3);
    expect(files.get('b.md')).toBe('new b.md');
  });

  it('agent.close() stops it and waits for the file under way: nothing is written after close() resolves', async () => {
    const { agent, files, restoring } = await edited();
    const rewinding = agent.rewindFiles({ toMessage: 0 });
    await restoring[0]!.started.promise;
    let closed = false;
    const closing = agent.close().then(() => (closed = true));
    // close() waits for a.md to be written back.
    await Promise.resolve();
    expect(closed).toBe(false);
    for (const step of restoring) step.finish.resolve();
    await closing;
    expect([...files.values()]).toEqual(['old a.md', 'new b.md', 'new c.md', 'new d.md']);
    const result = await rewinding;
    expect(result).toMatchObject({ interrupted: true, restored: [{ path: 'a.md' }] });
    expect([...files.values()]).toEqual(['old a.md', 'new b.md', 'new c.md', 'new d.md']);
  });
});
