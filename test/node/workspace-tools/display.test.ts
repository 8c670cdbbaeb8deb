import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type CanUseToolContext, type PermissionRequestEvent, type ToolDisplay } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import type { Tool } from '../../../src/tools/types.js';
import { fakeAgent, makeTempDir, toolNamed } from './helpers.js';

let work: string;
let outside: string;
let tools: Tool[];

beforeEach(async () => {
  work = await makeTempDir('ws-display-');
  outside = await makeTempDir('ws-display-outside-');
  tools = workspaceTools({ cwd: work });
});
afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

async function displayOf(name: string, input: unknown): Promise<ToolDisplay | undefined> {
  const tool = toolNamed(tools, name);
  const parsed = tool.parseInput(input);
  if (!parsed.ok) throw new Error(parsed.issues.join('; '));
  return tool.display?.({ input: parsed.value, toolUseId: 'toolu_1', agent: fakeAgent(), signal: new AbortController().signal });
}

describe('the workspace tools show what a call would do', () => {
  it('Edit: a unified diff of the whole file with the edit applied, and before/after', async () => {
    const before = 'export function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}\n';
    await fs.writeFile(path.join(work, 'cart.js'), before);
    const display = await displayOf('Edit', { file_path: 'cart.js', old_string: 'sum += item.price;', new_string: 'sum += item.price * item.quantity;' });
    const after = before.replace('item.price;', 'item.price * item.quantity;');
    expect(display).toEqual({
      title: 'Edit cart.js',
      summary: '1 line removed, 1 line added.',
      body: [
        '--- a/cart.js',
        '+++ b/cart.js',
        '@@ -1,5 +1,5 @@',
        ' export function total(items) {',
        '   let sum = 0;',
        '-  for (const item of items) sum += item.price;',
        '+  for (const item of items) sum += item.price * item.quantity;',
        '   return sum;',
        ' }',
        '',
      ].join('\n'),
      bodyFormat: 'diff',
      file: { path: 'cart.js', before, after },
    });
  });

  it('Edit of a CRLF file applies the edit as the tool would', async () => {
    await fs.writeFile(path.join(work, 'win.txt'), 'a\r\nb\r\n');
    const display = await displayOf('Edit', { file_path: 'win.txt', old_string: 'a\nb', new_string: 'a\nc' });
    expect(display?.file).toEqual({ path: 'win.txt', before: 'a\r\nb\r\n', after: 'a\r\nc\r\n' });
  });

  it('Write: a new file is shown as created; an existing one as a diff against it', async () => {
    expect(await displayOf('Write', { file_path: 'notes/brief.md', content: '# Brief\nHello\n' })).toEqual({
      title: 'Create notes/brief.md',
      summary: 'A new file of 2 lines.',
      body: '--- /dev/null\n+++ b/notes/brief.md\n@@ -0,0 +1,2 @@\n+# Brief\n+Hello\n',
      bodyFormat: 'diff',
      file: { path: 'notes/brief.md', before: null, after: '# Brief\nHello\n' },
    });
    await fs.writeFile(path.join(work, 'todo.md'), 'one\ntwo\n');
    const display = await displayOf('Write', { file_path: path.join(work, 'todo.md'), content: 'one\nthree\nfour\n' });
    expect(display).toMatchObject({ title: 'Overwrite todo.md', summary: 'Replaces the whole file: 1 line removed, 2 lines added.', file: { before: 'one\ntwo\n' } });
  });

  it('never opens a file outside the workspace, or one that is too large, not text, or a FIFO', async () => {
    const secret = path.join(outside, 'secret.txt');
    await fs.writeFile(secret, 'TOP SECRET\n');
    const write = await displayOf('Write', { file_path: secret, content: 'x\n' });
    expect(write).toMatchObject({ title: `Write ${secret} (outside the workspace)`, bodyFormat: 'text', body: 'x\n' });
    expect(write!.summary).toBe(`Write 1 line to ${secret}; its current content was not read because it is outside the workspace.`);
    const edit = await displayOf('Edit', { file_path: secret, old_string: 'TOP', new_string: 'NOT' });
    expect(JSON.stringify(edit)).not.toContain('SECRET');
    expect(edit).toMatchObject({ body: `--- a/${secret}\n+++ b/${secret}\n@@ -1 +1 @@\n-TOP\n\\ No newline at end of file\n+NOT\n\\ No newline at end of file\n`, bodyFormat: 'diff' });
    // A link inside pointing outside is outside.
    await fs.symlink(secret, path.join(work, 'link.txt'));
    expect(JSON.stringify(await displayOf('Write', { file_path: 'link.txt', content: 'y' }))).not.toContain('SECRET');
    await fs.writeFile(path.join(work, 'big.txt'), 'x'.repeat(300 * 1024));
    expect((await displayOf('Write', { file_path: 'big.txt', content: 'small' }))!.summary).toContain('larger than 256 KiB');
    await fs.writeFile(path.join(work, 'image.bin'), Buffer.from([0x89, 0x50, 0, 0x47]));
    expect((await displayOf('Write', { file_path: 'image.bin', content: 'text' }))!.summary).toContain('not a text file');
    execFileSync('mkfifo', [path.join(work, 'pipe')]);
    expect((await displayOf('Write', { file_path: 'pipe', content: 'text' }))!.summary).toContain('not a regular file');
  });

  it('Edit with replace_all says so; a huge rewrite is shortened for the card and keeps no before/after', async () => {
    await fs.writeFile(path.join(work, 'list.txt'), 'a\nb\na\n');
    expect((await displayOf('Edit', { file_path: 'list.txt', old_string: 'a', new_string: 'c', replace_all: true }))!.summary).toBe('Every occurrence replaced: 2 lines removed, 2 lines added.');
    const lines = Array.from({ length: 20_000 }, (_, index) => `line ${index}`);
    await fs.writeFile(path.join(work, 'long.txt'), `${lines.join('\n')}\n`);
    const display = await displayOf('Write', { file_path: 'long.txt', content: `${lines.map((line) => `${line}!`).join('\n')}\n${'x'.repeat(300 * 1024)}` });
    expect(display!.summary).toContain('(the diff below is shortened)');
    expect(display!.body!.length).toBeLessThanOrEqual(100_000);
    expect(display!.body!.endsWith('\n')).toBe(true);
    expect(display!.file).toBeUndefined();
  });

  it('Edit that does not apply shows the replaced passage alone', async () => {
    await fs.writeFile(path.join(work, 'a.txt'), 'alpha\n');
    const display = await displayOf('Edit', { file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' });
    expect(display).toMatchObject({ title: 'Edit a.txt', summary: 'Replace a passage of a.txt (the edit does not apply to the file as it is now).', bodyFormat: 'diff' });
  });

  it('Bash: the command and the directory it runs in', async () => {
    expect(await displayOf('Bash', { command: 'npm test -- --watch=false', description: 'Run the unit tests' })).toEqual({
      title: 'Run the unit tests',
      summary: `Run a shell command in ${work}.`,
      body: 'npm test -- --watch=false',
      bodyFormat: 'command',
      cwd: work,
    });
    expect(await displayOf('Bash', { command: 'set -e\nmake\nmake install', timeout: 90_000 })).toMatchObject({
      title: 'Run set -e make make install',
      summary: `Run a 3-line shell script in ${work}, for at most 90 s.`,
    });
  });
});

describe('approval cards carry the display and plain words', () => {
  it('a pending approval, the permission-request event and canUseTool all get the diff; suggestions say what they allow', async () => {
    const model = scriptedModel([turn(toolCall('Write', { file_path: 'brief.md', content: 'Hello\n' }, 'toolu_w')), 'Done.']);
    const asked: CanUseToolContext[] = [];
    const agent = createAgent({
      model,
      tools,
      cwd: work,
      canUseTool: (_name, _input, context) => {
        asked.push(context);
        return { behavior: 'defer' };
      },
    });
    const requests: PermissionRequestEvent[] = [];
    agent.on('permission-request', (event) => requests.push(event));
    const result = await agent.run('Write the brief.').result;
    expect(result.status).toBe('awaiting-approval');
    const [approval] = agent.pendingApprovals;
    const expectedDisplay = {
      title: 'Create brief.md',
      summary: 'A new file of 1 line.',
      body: '--- /dev/null\n+++ b/brief.md\n@@ -0,0 +1 @@\n+Hello\n',
      bodyFormat: 'diff',
      file: { path: 'brief.md', before: null, after: 'Hello\n' },
    };
    expect(approval!.display).toEqual(expectedDisplay);
    expect(requests[0]!.display).toEqual(expectedDisplay);
    expect(asked[0]!.display).toEqual(expectedDisplay);
    expect(approval!.suggestions.map((suggestion) => suggestion.description)).toEqual([
      'Allow writing any file in this project',
      'Allow file edits in this project without asking, for the rest of this session',
    ]);
    // The card survives a snapshot as plain JSON, and the approval still works.
    const resumed = createAgent({ model, tools, cwd: work, resume: JSON.parse(JSON.stringify(agent.snapshot())) });
    expect(resumed.pendingApprovals[0]!.display).toEqual(expectedDisplay);
    expect((await resumed.resolveApproval(approval!.id, { behavior: 'allow' }).result).status).toBe('completed');
    expect(await fs.readFile(path.join(work, 'brief.md'), 'utf8')).toBe('Hello\n');
  });
});
