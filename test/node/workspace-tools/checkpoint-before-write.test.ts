import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, type SessionEntry, type SessionStore } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { makeTempDir } from './helpers.js';

let work: string;
beforeEach(async () => {
  work = await makeTempDir('ws-checkpoint-durable-');
});
afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

const isCheckpoint = (entry: SessionEntry) => entry.kind === 'tool-state' && entry.key.startsWith('files.checkpoint');

/**
 * A store over `inner` that dies at the append carrying a file checkpoint (a kill -9 there: that
 * append and every later one never land), and notes what the file held when each append came.
 */
function dyingAtCheckpoint(inner: SessionStore, file: string) {
  let dead = false;
  const seen: Array<string | undefined> = [];
  const store: SessionStore = {
    ...inner,
    append: async (sessionId, entries, options) => {
      if (entries.some(isCheckpoint)) {
        seen.push(await fs.readFile(file, 'utf8').catch(() => undefined));
        dead = true;
      }
      if (dead) throw new Error('the process died');
      return inner.append(sessionId, entries, options);
    },
  };
  return { store, seen };
}

describe('a file checkpoint is stored before the file changes', () => {
  it.each([
    ['Write over a file', toolCall('Write', { file_path: 'draft.md', content: 'new\n' }), 'old\n'],
    ['Write of a new file', toolCall('Write', { file_path: 'draft.md', content: 'new\n' }), undefined],
    ['Edit', toolCall('Edit', { file_path: 'draft.md', old_string: 'old', new_string: 'new' }), 'old\n'],
  ])('%s: the process dies at the checkpoint\'s append, and the file is left as it was', async (_name, call, before) => {
    const file = path.join(work, 'draft.md');
    if (before !== undefined) await fs.writeFile(file, before);
    const inner = memorySessionStore();
    const { store, seen } = dyingAtCheckpoint(inner, file);
    const script = before !== undefined ? [turn(toolCall('Read', { file_path: 'draft.md' })), turn(call), 'done'] : [turn(call), 'done'];
    const agent = createAgent({ model: scriptedModel(script), tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits', store });
    const result = await agent.run('change the draft').result;
    expect(result.status).not.toBe('completed');
    // When the append came, the file held what it held before (a new file: not created yet).
    expect(seen).toEqual([before]);
    // Nothing the store did not take happened to the file.
    expect(await fs.readFile(file, 'utf8').catch(() => undefined)).toBe(before);
  });

  it('with the store working, the checkpoint lands before the write, and rewindFiles in a resumed agent undoes the change', async () => {
    const file = path.join(work, 'draft.md');
    await fs.writeFile(file, 'old\n');
    const inner = memorySessionStore();
    const seen: Array<string | undefined> = [];
    const store: SessionStore = {
      ...inner,
      append: async (sessionId, entries, options) => {
        if (entries.some(isCheckpoint)) seen.push(await fs.readFile(file, 'utf8'));
        return inner.append(sessionId, entries, options);
      },
    };
    const model = scriptedModel([turn(toolCall('Read', { file_path: 'draft.md' })), turn(toolCall('Write', { file_path: 'draft.md', content: 'new\n' })), 'done']);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits', store });
    expect((await agent.run('change the draft').result).status).toBe('completed');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((text) => text === 'old\n')).toBe(true);
    const resumed = createAgent({ model: scriptedModel([]), tools: workspaceTools({ cwd: work }), store: inner, resume: agent.sessionId });
    await resumed.ready;
    const rewound = await resumed.rewindFiles({ toMessage: 0 });
    expect(rewound.restored).toEqual([expect.objectContaining({ action: 'restored' })]);
    expect(await fs.readFile(file, 'utf8')).toBe('old\n');
  });

  it('Write of a new file: the process dies once the checkpoint landed, and a resumed agent\'s rewind removes whatever was created', async () => {
    const file = path.join(work, 'draft.md');
    const inner = memorySessionStore();
    let dead = false;
    const seen: Array<string | undefined> = [];
    const store: SessionStore = {
      ...inner,
      append: async (sessionId, entries, options) => {
        if (dead) throw new Error('the process died');
        const landed = await inner.append(sessionId, entries, options);
        if (entries.some((entry) => entry.kind === 'tool-state' && entry.key === 'files.checkpoints')) {
          seen.push(await fs.readFile(file, 'utf8').catch(() => undefined));
          dead = true; // the checkpoint and its index are stored; nothing after them is
        }
        return landed;
      },
    };
    const agent = createAgent({ model: scriptedModel([turn(toolCall('Write', { file_path: 'draft.md', content: 'new\n' })), 'done']), tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits', store });
    await agent.run('write the draft').result;
    expect(seen).toEqual([undefined]);
    expect(await fs.readFile(file, 'utf8')).toBe('new\n');
    const resumed = createAgent({ model: scriptedModel([]), tools: workspaceTools({ cwd: work }), store: inner, resume: agent.sessionId });
    await resumed.ready;
    const rewound = await resumed.rewindFiles({ toMessage: 0 });
    expect(rewound.restored).toEqual([expect.objectContaining({ action: 'deleted' })]);
    expect(await fs.readFile(file, 'utf8').catch(() => undefined)).toBeUndefined();
  });

  it('Write of a new file that someone else creates right after the checkpoint: the call fails, the record is taken back, and a rewind leaves their file alone', async () => {
    const file = path.join(work, 'draft.md');
    const inner = memorySessionStore();
    const store: SessionStore = {
      ...inner,
      append: async (sessionId, entries, options) => {
        const landed = await inner.append(sessionId, entries, options);
        if (entries.some(isCheckpoint) && !(await fs.stat(file).catch(() => undefined))) await fs.writeFile(file, 'theirs\n');
        return landed;
      },
    };
    const agent = createAgent({ model: scriptedModel([turn(toolCall('Write', { file_path: 'draft.md', content: 'new\n' })), 'done']), tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits', store });
    const result = await agent.run('write the draft').result;
    expect(result.status).toBe('completed');
    const answer = agent.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).find((block) => block.type === 'tool_result');
    expect(JSON.stringify(answer)).toMatch(/created by someone else meanwhile/);
    expect(await fs.readFile(file, 'utf8')).toBe('theirs\n');
    const resumed = createAgent({ model: scriptedModel([]), tools: workspaceTools({ cwd: work }), store: inner, resume: agent.sessionId });
    await resumed.ready;
    const rewound = await resumed.rewindFiles({ toMessage: 0 });
    expect(rewound.restored).toEqual([]);
    expect(await fs.readFile(file, 'utf8')).toBe('theirs\n');
  });
});
