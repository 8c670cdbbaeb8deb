// Files that are not valid UTF-8 (Latin-1, as legacy sources and CSV exports are). Edit used to
// decode them (0xE9 became U+FFFD) and write EF BF BD back on lines it never touched (attack
// run); it refuses them now, changing nothing, and Read says what it showed.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from 'agent-harness/node';
import { notUtf8Message } from '../../../src/node/workspace-tools/not-utf8-message.js';
import { callTool, fakeAgent, makeTempDir, toolNamed } from './helpers.js';

let work: string;
beforeEach(async () => {
  work = await makeTempDir('ws-not-utf8-');
});
afterEach(() => fs.rm(work, { recursive: true, force: true }));

/** "café = 1\nTODO\n" in Latin-1: é is the single byte 0xE9. */
const LATIN1 = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' = 1\nTODO\n')]);

async function setup(bytes: Buffer) {
  const file = path.join(work, 'legacy.txt');
  await fs.writeFile(file, bytes);
  const tools = workspaceTools({ cwd: work });
  const agent = fakeAgent('acceptEdits');
  const read = await callTool(toolNamed(tools, 'Read'), { file_path: 'legacy.txt' }, { agent });
  return { file, tools, agent, read };
}

describe('Edit', () => {
  it('refuses a Latin-1 file before anything is asked, naming the byte and what to do instead; the file is unchanged', async () => {
    const { file, tools, agent } = await setup(LATIN1);
    const edit = await callTool(toolNamed(tools, 'Edit'), { file_path: 'legacy.txt', old_string: 'TODO', new_string: 'DONE' }, { agent });
    expect(edit).toMatchObject({ stage: 'validate', isError: true });
    expect(edit.text).toMatch(/^legacy\.txt is not valid UTF-8 text: byte 0xE9 at line 1, column 4 \(byte offset 3\)/);
    expect(edit.text).toMatch(/nothing was changed.*Bash.*iconv.*Write the whole file/);
    expect((await fs.readFile(file)).equals(LATIN1)).toBe(true);
  });

  it('refuses it at execute time too (a file that became Latin-1 after the check)', async () => {
    const { file, tools, agent } = await setup(LATIN1);
    const output = await toolNamed(tools, 'Edit').execute({
      input: { file_path: 'legacy.txt', old_string: 'TODO', new_string: 'DONE' },
      toolUseId: 'toolu_edit',
      agent,
      signal: new AbortController().signal,
    });
    expect(output).toMatchObject({ isError: true, content: expect.stringMatching(/is not valid UTF-8 text/) });
    expect((await fs.readFile(file)).equals(LATIN1)).toBe(true);
  });

  it('still edits UTF-8 text with a byte order mark and characters beyond ASCII, keeping every other byte', async () => {
    const text = Buffer.from('\uFEFFcafé = 1 ✓ 🦀\nTODO\n', 'utf8');
    const { file, tools, agent } = await setup(text);
    const edit = await callTool(toolNamed(tools, 'Edit'), { file_path: 'legacy.txt', old_string: 'TODO', new_string: 'DONE' }, { agent });
    expect(edit).toMatchObject({ stage: 'execute', isError: false });
    expect((await fs.readFile(file)).toString('hex')).toBe(Buffer.from('\uFEFFcafé = 1 ✓ 🦀\nDONE\n', 'utf8').toString('hex'));
  });
});

describe('Read and Write of such a file', () => {
  it('Read returns the text with a note that it is not UTF-8', async () => {
    const { read } = await setup(LATIN1);
    expect(read).toMatchObject({ stage: 'execute', isError: false });
    expect(read.text).toContain('caf\uFFFD = 1');
    expect(read.text).toMatch(/legacy\.txt is not valid UTF-8 \(Latin-1 or another encoding\?\)/);
  });

  it('Read of UTF-8 text has no such note', async () => {
    const { read } = await setup(Buffer.from('café\n', 'utf8'));
    expect(read.text).not.toMatch(/not valid UTF-8/);
  });

  it('Write still replaces the whole file (it decodes nothing)', async () => {
    const { file, tools, agent } = await setup(LATIN1);
    const write = await callTool(toolNamed(tools, 'Write'), { file_path: 'legacy.txt', content: 'café = 1\nDONE\n' }, { agent });
    expect(write).toMatchObject({ stage: 'execute', isError: false });
    expect(await fs.readFile(file, 'utf8')).toBe('café = 1\nDONE\n');
  });
});

describe('notUtf8Message', () => {
  it.each([
    ['an overlong form', [0x61, 0x0a, 0x62, 0xc0, 0xaf], 'byte 0xC0 at line 2, column 2 (byte offset 3)'],
    ['a surrogate', [0xed, 0xa0, 0x80], 'byte 0xED at line 1, column 1 (byte offset 0)'],
    ['a character cut at the end', [0x61, 0xe2, 0x82], 'byte 0xE2 at line 1, column 2 (byte offset 1)'],
    ['a lone continuation byte', [0x80], 'byte 0x80 at line 1, column 1 (byte offset 0)'],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 'byte 0xF4 at line 1, column 1 (byte offset 0)'],
  ])('names the first bad byte: %s', (_name, bytes, where) => {
    expect(notUtf8Message('Edit', 'f.txt', Uint8Array.from(bytes))).toContain(`f.txt is not valid UTF-8 text: ${where} is not part`);
  });

  it('is undefined for valid UTF-8', () => {
    expect(notUtf8Message('Edit', 'f.txt', Buffer.from('ok é ✓ 🦀 \uFFFD', 'utf8'))).toBeUndefined();
  });
});
