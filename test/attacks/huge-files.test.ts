import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../src/node/workspace-tools.js';
import { MAX_EDITABLE_BYTES } from '../../src/node/workspace-tools/max-editable-bytes.js';
import type { Tool } from '../../src/tools/types.js';
import { callTool, fakeAgent, makeTempDir, toolNamed } from '../node/workspace-tools/helpers.js';

// A file of gigabytes in the workspace (a log, a database dump, a sparse file the model made):
// Read used to hash and count all of it (minutes for a large one), and Edit and Write to load all
// of it into memory (a 1.5 GB file took the server's heap; a 3 GB one failed with a RangeError).
// Sparse files cost no disk; the test's own timeout bounds the time.
const HUGE = 3 * 1024 * 1024 * 1024;
let work: string;
let tools: Tool[];

beforeEach(async () => {
  work = await makeTempDir('ws-huge-');
  tools = workspaceTools({ cwd: work });
});

afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

async function sparseFile(name: string, head: string, size: number): Promise<string> {
  const file = path.join(work, name);
  await fs.writeFile(file, head);
  await fs.truncate(file, size);
  return file;
}

describe('huge files: Read, Edit and Write stay bounded in time and memory', () => {
  it('Read returns the lines asked for without reading the rest, and says the file is too large to read whole', async () => {
    await sparseFile('huge.log', 'line one\nline two\nline three\n'.repeat(400), HUGE);
    const read = await callTool(toolNamed(tools, 'Read'), { file_path: 'huge.log', limit: 3 });
    expect(read).toMatchObject({ isError: false });
    expect(read.text).toMatch(/^ +1\tline one\n +2\tline two\n +3\tline three\n/);
    expect(read.text).toContain(`a file of ${HUGE} bytes; it is too large to read whole`);
    expect(read.text).toContain('Continue with offset=4.');
  }, 10_000);

  it('Read of a huge file that is one endless line cuts the line and stops', async () => {
    await sparseFile('one-line.txt', 'x'.repeat(9000), HUGE);
    const read = await callTool(toolNamed(tools, 'Read'), { file_path: 'one-line.txt' });
    expect(read).toMatchObject({ isError: false });
    expect(read.text).toMatch(/^ +1\tx{2000} \.\.\. \[line truncated\]/);
    expect(read.text).toContain('too large to read whole');
  }, 10_000);

  it('Edit and Write refuse a file over the limit, naming its size and the fix, and leave it as it is', async () => {
    const file = await sparseFile('huge.txt', 'alpha\nbeta\n'.repeat(1000), HUGE);
    const agent = fakeAgent();
    await callTool(toolNamed(tools, 'Read'), { file_path: 'huge.txt' }, { agent });
    const edit = await callTool(toolNamed(tools, 'Edit'), { file_path: 'huge.txt', old_string: 'alpha', new_string: 'gamma' }, { agent, answer: () => true });
    expect(edit).toMatchObject({ isError: true, text: `huge.txt is ${HUGE} bytes, more than the ${MAX_EDITABLE_BYTES} bytes Edit changes; it was left as it is. Change it with Bash instead (sed, a script), or split it into smaller files.` });
    const write = await callTool(toolNamed(tools, 'Write'), { file_path: 'huge.txt', content: 'small' }, { agent, answer: () => true });
    expect(write).toMatchObject({ isError: true, text: expect.stringContaining(`more than the ${MAX_EDITABLE_BYTES} bytes Write changes`) });
    expect((await fs.stat(file)).size).toBe(HUGE);
  }, 10_000);

  it('Edit and Write refuse at execution too, when the file grew past the limit after validation', async () => {
    const file = path.join(work, 'grows.txt');
    await fs.writeFile(file, 'alpha\n');
    const agent = fakeAgent();
    await callTool(toolNamed(tools, 'Read'), { file_path: 'grows.txt' }, { agent });
    const edit = toolNamed(tools, 'Edit');
    await fs.truncate(file, HUGE);
    const raw = await edit.execute({ input: { file_path: 'grows.txt', old_string: 'alpha', new_string: 'gamma' }, toolUseId: 'toolu_grow', agent, signal: new AbortController().signal });
    expect(JSON.stringify(raw)).toContain(`more than the ${MAX_EDITABLE_BYTES} bytes Edit changes`);
    expect((await fs.stat(file)).size).toBe(HUGE);
  }, 10_000);

  it('a file just under the limit is still read whole and editable', async () => {
    const file = await sparseFile('edge.txt', `alpha\n${'text\n'.repeat(2000)}`, MAX_EDITABLE_BYTES);
    // The sparse rest is NUL bytes after the first 8 KiB: text to Read, and valid UTF-8.
    const agent = fakeAgent();
    const read = await callTool(toolNamed(tools, 'Read'), { file_path: 'edge.txt', limit: 1 }, { agent });
    expect(read.text).not.toContain('too large');
    const edit = await callTool(toolNamed(tools, 'Edit'), { file_path: 'edge.txt', old_string: 'alpha\n', new_string: 'gamma\n' }, { agent, answer: () => true });
    expect(edit).toMatchObject({ isError: false });
    const head = Buffer.alloc(6);
    const handle = await fs.open(file);
    await handle.read(head, 0, 6, 0);
    await handle.close();
    expect(head.toString()).toBe('gamma\n');
  }, 30_000);
});
