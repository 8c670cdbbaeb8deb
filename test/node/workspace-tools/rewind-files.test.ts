import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, defineTool, RunInProgressError, type Agent } from 'agent-harness';
import { fileSessionStore, workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn, type ScriptItem } from 'agent-harness/testing';
import { z } from 'zod';
import { failingChown, makeTempDir } from './helpers.js';

let base: string;
let work: string;
beforeEach(async () => {
  base = await makeTempDir('ws-rewind-');
  work = path.join(base, 'work');
  await fs.mkdir(work);
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const file = (name: string) => path.join(work, name);
const read = (name: string) => fs.readFile(file(name), 'utf8').catch(() => undefined);

/** Three runs: write the draft (v1); edit it (v2); create notes and edit the draft again (v3). */
const SCRIPT: ScriptItem[] = [
  turn(toolCall('Write', { file_path: 'draft.md', content: 'v1\n' })),
  'written',
  turn(toolCall('Edit', { file_path: 'draft.md', old_string: 'v1', new_string: 'v2' })),
  'edited',
  turn(toolCall('Write', { file_path: 'notes.md', content: 'notes\n' }), toolCall('Edit', { file_path: 'draft.md', old_string: 'v2', new_string: 'v3' })),
  'more',
];

async function threeRuns(agent: Agent): Promise<void> {
  for (const prompt of ['write the draft', 'edit it', 'notes and another edit']) {
    const result = await agent.run(prompt).result;
    expect(result.status).toBe('completed');
  }
  expect(await read('draft.md')).toBe('v3\n');
  expect(await read('notes.md')).toBe('notes\n');
}

const userIndex = (agent: Agent, text: string) =>
  agent.messages.findIndex((message) => message.role === 'user' && JSON.stringify(message.content).includes(text));

describe('agent.rewindFiles', () => {
  it('puts files back as they were at a message: edits undone, created files removed; the model is told', async () => {
    const model = scriptedModel([...SCRIPT, 'ok']);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits' });
    await threeRuns(agent);

    const result = await agent.rewindFiles({ toMessage: userIndex(agent, 'edit it') });
    expect(result.skipped).toEqual([]);
    expect(result.restored).toEqual(
      expect.arrayContaining([
        { path: file('draft.md'), action: 'restored', toolName: 'Edit' },
        { path: file('notes.md'), action: 'deleted', toolName: 'Write' },
      ]),
    );
    expect(result.restored).toHaveLength(2);
    expect(await read('draft.md')).toBe('v1\n');
    expect(await read('notes.md')).toBeUndefined();

    await agent.run('what now?').result;
    const sent = JSON.stringify(model.requests.at(-1)!.messages.at(-1));
    expect(sent).toContain('rewound files');
    expect(sent).toContain('draft.md');

    // Rewinding to the same point again changes nothing: the checkpoints were consumed.
    expect(await agent.rewindFiles({ toMessage: userIndex(agent, 'edit it') })).toEqual({ restored: [], skipped: [], interrupted: false });
    // Back to the start: the draft did not exist.
    const first = await agent.rewindFiles({ toMessage: 0 });
    expect(first.restored).toEqual([{ path: file('draft.md'), action: 'deleted', toolName: 'Write' }]);
    expect(await read('draft.md')).toBeUndefined();
  });

  it('undoes only the last edit when given the last user message', async () => {
    const agent = createAgent({ model: scriptedModel(SCRIPT), tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits' });
    await threeRuns(agent);
    await agent.rewindFiles({ toMessage: userIndex(agent, 'notes and another edit') });
    expect(await read('draft.md')).toBe('v2\n');
    expect(await read('notes.md')).toBeUndefined();
  });

  it('dryRun reports and changes nothing', async () => {
    const agent = createAgent({ model: scriptedModel(SCRIPT), tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits' });
    await threeRuns(agent);
    const dry = await agent.rewindFiles({ toMessage: 0, dryRun: true });
    expect(dry.restored.map((entry) => [path.basename(entry.path), entry.action]).sort()).toEqual([
      ['draft.md', 'deleted'],
      ['notes.md', 'deleted'],
    ]);
    expect(await read('draft.md')).toBe('v3\n');
    expect((await agent.rewindFiles({ toMessage: 0 })).restored).toHaveLength(2);
  });

  it('works after a resume from a snapshot (another process) and from a file store', async () => {
    const agent = createAgent({ model: scriptedModel(SCRIPT), tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits' });
    await threeRuns(agent);
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot()));
    const resumed = createAgent({ model: scriptedModel([]), tools: workspaceTools({ cwd: work }), resume: snapshot });
    await resumed.rewindFiles({ toMessage: userIndex(resumed, 'edit it') });
    expect(await read('draft.md')).toBe('v1\n');

    await fs.rm(work, { recursive: true });
    await fs.mkdir(work);
    const dir = path.join(base, 'sessions');
    const stored = createAgent({ model: scriptedModel(SCRIPT), tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits', store: fileSessionStore({ dir }) });
    await threeRuns(stored);
    await stored.close();
    const loaded = createAgent({ model: scriptedModel([]), tools: workspaceTools({ cwd: work }), store: fileSessionStore({ dir }), resume: stored.sessionId });
    await loaded.ready;
    const result = await loaded.rewindFiles({ toMessage: userIndex(loaded, 'notes and another edit') });
    expect(result.restored).toHaveLength(2);
    expect(await read('draft.md')).toBe('v2\n');
    await loaded.close();
    // The consumed checkpoints are stored too: a third process finds nothing left to undo there.
    const third = createAgent({ model: scriptedModel([]), tools: workspaceTools({ cwd: work }), store: fileSessionStore({ dir }), resume: stored.sessionId });
    await third.ready;
    expect((await third.rewindFiles({ toMessage: userIndex(third, 'notes and another edit') })).restored).toEqual([]);
    await third.close();
  });

  it('refuses, with the reason, what it cannot restore exactly: too large, evicted, no tool to restore it', async () => {
    await fs.writeFile(file('big.md'), 'B'.repeat(64));
    const script: ScriptItem[] = [
      turn(toolCall('Read', { file_path: 'big.md' })),
      turn(toolCall('Edit', { file_path: 'big.md', old_string: 'BBBB', new_string: 'C', replace_all: true })),
      'done',
    ];
    const agent = createAgent({ model: scriptedModel(script), tools: workspaceTools({ cwd: work, checkpoints: { maxFileBytes: 32 } }), permissionMode: 'acceptEdits' });
    await agent.run('shrink it').result;
    const result = await agent.rewindFiles({ toMessage: 0 });
    expect(result.restored).toEqual([]);
    expect(result.skipped).toEqual([{ path: file('big.md'), reason: expect.stringMatching(/64 bytes.*larger than the checkpoint limit/) }]);

    // Evicted: the session keeps 8 bytes; the second edit pushes the first version out.
    await fs.writeFile(file('small.md'), 'aaaaaa\n');
    const evicting = createAgent({
      model: scriptedModel([
        turn(toolCall('Read', { file_path: 'small.md' })),
        turn(toolCall('Edit', { file_path: 'small.md', old_string: 'aaaaaa', new_string: 'bbbbbb' })),
        'one',
        turn(toolCall('Edit', { file_path: 'small.md', old_string: 'bbbbbb', new_string: 'cccccc' })),
        'two',
      ]),
      tools: workspaceTools({ cwd: work, checkpoints: { maxBytes: 8 } }),
      permissionMode: 'acceptEdits',
    });
    await evicting.run('first').result;
    await evicting.run('second').result;
    const tooFar = await evicting.rewindFiles({ toMessage: 0 });
    expect(tooFar.skipped[0]?.reason).toMatch(/dropped to keep the session's checkpoints within their size bound/);
    expect(await read('small.md')).toBe('cccccc\n');
    await evicting.rewindFiles({ toMessage: userIndex(evicting, 'second') });
    expect(await read('small.md')).toBe('bbbbbb\n');

    // Resumed without the Edit tool: nobody can put the file back.
    const snapshot = agent.snapshot();
    await fs.writeFile(file('c.md'), 'c\n');
    const writer = createAgent({
      model: scriptedModel([turn(toolCall('Read', { file_path: 'c.md' })), turn(toolCall('Write', { file_path: 'c.md', content: 'd\n' })), 'ok']),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'acceptEdits',
    });
    await writer.run('write').result;
    const readOnly = createAgent({ model: scriptedModel([]), tools: workspaceTools({ cwd: work, tools: ['Read'] }), resume: writer.snapshot() });
    expect((await readOnly.rewindFiles({ toMessage: 0 })).skipped).toEqual([{ path: file('c.md'), reason: expect.stringMatching(/tool Write .* not among this agent's tools/) }]);
    expect(await read('c.md')).toBe('d\n');
    expect(snapshot).toBeDefined();
  });

  it('keeps nothing with checkpoints: false', async () => {
    const agent = createAgent({ model: scriptedModel(SCRIPT), tools: workspaceTools({ cwd: work, checkpoints: false }), permissionMode: 'acceptEdits' });
    await threeRuns(agent);
    expect(await agent.rewindFiles({ toMessage: 0 })).toEqual({ restored: [], skipped: [], interrupted: false });
    expect(Object.keys(agent.snapshot().toolState).filter((key) => key.startsWith('files.'))).toEqual([]);
    expect(await read('draft.md')).toBe('v3\n');
  });

  it('never writes through a directory swapped for a link since the change', async () => {
    const outside = path.join(base, 'outside');
    await fs.mkdir(outside);
    await fs.mkdir(path.join(work, 'sub'));
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Write', { file_path: 'sub/a.md', content: 'new\n' })), 'ok']),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'acceptEdits',
    });
    await agent.run('write').result;
    await fs.writeFile(path.join(outside, 'a.md'), 'outside file\n');
    await fs.rm(path.join(work, 'sub'), { recursive: true });
    await fs.symlink(outside, path.join(work, 'sub'));
    const result = await agent.rewindFiles({ toMessage: 0 });
    expect(result.restored).toEqual([]);
    expect(result.skipped[0]?.reason).toMatch(/lead elsewhere now/);
    expect(await fs.readFile(path.join(outside, 'a.md'), 'utf8')).toBe('outside file\n');
  });

  it('creates no folder through a directory swapped for a link since the change (an edited file deeper down)', async () => {
    const outside = path.join(base, 'outside');
    await fs.mkdir(outside);
    await fs.mkdir(path.join(work, 'a', 'b'), { recursive: true });
    await fs.writeFile(path.join(work, 'a', 'b', 'draft.md'), 'v1\n');
    const agent = createAgent({
      model: scriptedModel([
        turn(toolCall('Read', { file_path: 'a/b/draft.md' })),
        turn(toolCall('Edit', { file_path: 'a/b/draft.md', old_string: 'v1', new_string: 'v2' })),
        'edited',
      ]),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'acceptEdits',
    });
    expect((await agent.run('edit the draft').result).status).toBe('completed');
    await fs.rm(path.join(work, 'a'), { recursive: true });
    await fs.symlink(outside, path.join(work, 'a'));
    const result = await agent.rewindFiles({ toMessage: 0 });
    expect(result.restored).toEqual([]);
    expect(result.skipped).toEqual([{ path: path.join(work, 'a', 'b', 'draft.md'), reason: expect.stringMatching(/a is a symbolic link now; refusing to create/) }]);
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it('creates the missing folders of an edited file again when they are simply gone', async () => {
    await fs.mkdir(path.join(work, 'a', 'b'), { recursive: true });
    await fs.writeFile(path.join(work, 'a', 'b', 'draft.md'), 'v1\n');
    const agent = createAgent({
      model: scriptedModel([
        turn(toolCall('Read', { file_path: 'a/b/draft.md' })),
        turn(toolCall('Edit', { file_path: 'a/b/draft.md', old_string: 'v1', new_string: 'v2' })),
        'edited',
      ]),
      tools: workspaceTools({ cwd: work }),
      permissionMode: 'acceptEdits',
    });
    await agent.run('edit the draft').result;
    await fs.rm(path.join(work, 'a'), { recursive: true });
    const result = await agent.rewindFiles({ toMessage: 0 });
    expect(result.skipped).toEqual([]);
    expect(await read('a/b/draft.md')).toBe('v1\n');
  });

  it('rejects a bad toMessage or option with a message naming it, and refuses during a run', async () => {
    const agent = createAgent({ model: scriptedModel(['hi']), tools: workspaceTools({ cwd: work }) });
    await agent.run('hello').result;
    for (const bad of [-1, 1.5, 3, Number.NaN, '1']) {
      await expect(agent.rewindFiles({ toMessage: bad as never })).rejects.toThrow(/`toMessage` must be an index into agent\.messages, an integer from 0 to 2/);
    }
    await expect(agent.rewindFiles({ toMessage: 0, dry: true } as never)).rejects.toThrow(ConfigurationError);
    await expect(agent.rewindFiles(undefined as never)).rejects.toThrow(/needs an options object/);
    await expect(agent.rewindFiles({ toMessage: 0, dryRun: 'yes' as never })).rejects.toThrow(/`dryRun` must be a boolean/);

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = defineTool({
      name: 'slow',
      description: 'Waits.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: async () => {
        started();
        await gate;
        return 'done';
      },
    });
    const busy = createAgent({ model: scriptedModel([turn(toolCall('slow', {})), 'ok']), tools: [slow] });
    const run = busy.run('go');
    await running;
    await expect(busy.rewindFiles({ toMessage: 0 })).rejects.toThrow(RunInProgressError);
    release();
    expect((await run.result).status).toBe('completed');
  });
});

describe('agent.rewindFiles puts a file back whole', () => {
  const rewound = async () => {
    const agent = createAgent({ model: scriptedModel([...SCRIPT, 'ok']), tools: workspaceTools({ cwd: work }), permissionMode: 'acceptEdits' });
    await threeRuns(agent);
    return agent;
  };

  it('as a new file that takes its place at once, with the same permission bits, leaving no temporary file', async () => {
    const agent = await rewound();
    await fs.chmod(file('draft.md'), 0o640);
    const before = await fs.stat(file('draft.md'));
    const result = await agent.rewindFiles({ toMessage: userIndex(agent, 'edit it') });
    expect(result.restored.map((restored) => restored.path)).toContain(file('draft.md'));
    expect(await read('draft.md')).toBe('v1\n');
    const after = await fs.stat(file('draft.md'));
    // Not written in place (where a crash midway would leave it torn): another file, same mode.
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o7777).toBe(0o640);
    expect((await fs.readdir(work)).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });

  // Only root can make a file of another user to try this on (keepsOwner's own tests cover the rule).
  it.skipIf(process.getuid?.() !== 0)('keeping the owner and group of another user\'s file', async () => {
    const agent = await rewound();
    await fs.chown(file('draft.md'), 1234, 5678);
    await agent.rewindFiles({ toMessage: userIndex(agent, 'edit it') });
    expect(await read('draft.md')).toBe('v1\n');
    const after = await fs.stat(file('draft.md'));
    expect({ uid: after.uid, gid: after.gid }).toEqual({ uid: 1234, gid: 5678 });
  });

  it.skipIf(process.getuid?.() !== 0)('in place when the new file cannot be given the owner (a user namespace that does not map it)', async () => {
    const agent = await rewound();
    await fs.chown(file('draft.md'), 1234, 5678);
    const before = await fs.stat(file('draft.md'));
    const chown = await failingChown(file('draft.md'));
    try {
      const result = await agent.rewindFiles({ toMessage: userIndex(agent, 'edit it') });
      expect(result.restored.map((restored) => restored.path)).toContain(file('draft.md'));
    } finally {
      chown.mockRestore();
    }
    expect(await read('draft.md')).toBe('v1\n');
    const after = await fs.stat(file('draft.md'));
    expect({ ino: after.ino, uid: after.uid, gid: after.gid }).toEqual({ ino: before.ino, uid: 1234, gid: 5678 });
  });

  it('in place when it has other names (hard links), so that every name has the earlier content again', async () => {
    const agent = await rewound();
    await fs.link(file('draft.md'), file('alias.md'));
    const before = await fs.stat(file('draft.md'));
    await agent.rewindFiles({ toMessage: userIndex(agent, 'edit it') });
    expect(await read('draft.md')).toBe('v1\n');
    expect(await read('alias.md')).toBe('v1\n');
    expect((await fs.stat(file('draft.md'))).ino).toBe(before.ino);
  });

  it('creates a file that was removed since only if nothing is there, and refuses to replace a symbolic link put in its place', async () => {
    const agent = await rewound();
    await fs.rm(file('draft.md'));
    await fs.writeFile(file('elsewhere.md'), 'not the draft\n');
    await fs.symlink(file('elsewhere.md'), file('draft.md'));
    const result = await agent.rewindFiles({ toMessage: userIndex(agent, 'edit it') });
    expect(result.skipped.map((skipped) => skipped.path)).toContain(file('draft.md'));
    expect(await fs.readFile(file('elsewhere.md'), 'utf8')).toBe('not the draft\n');
    expect((await fs.lstat(file('draft.md'))).isSymbolicLink()).toBe(true);
  });
});
