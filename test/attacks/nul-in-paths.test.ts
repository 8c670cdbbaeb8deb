import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../src/node/workspace-tools.js';
import type { Tool } from '../../src/tools/types.js';
import { callTool, makeTempDir, toolNamed } from '../node/workspace-tools/helpers.js';

// A NUL character in a path used to pass validation and the permission question (the host was
// asked about a path that C-string UIs show cut at the NUL), then fail at execution with Node's
// own "must be a string ... without null bytes". It is refused first, naming the field and the fix.
let work: string;
let tools: Tool[];

beforeEach(async () => {
  work = await makeTempDir('ws-nul-');
  tools = workspaceTools({ cwd: work });
});

afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

const CALLS: Array<[string, Record<string, unknown>, string]> = [
  ['Read', { file_path: 'notes.txt\0.env' }, 'file_path'],
  ['Write', { file_path: 'notes.txt\0.sh', content: 'x' }, 'file_path'],
  ['Edit', { file_path: 'notes.txt\0', old_string: '', new_string: 'x' }, 'file_path'],
  ['Glob', { pattern: '*.ts', path: 'src\0' }, 'path'],
  ['Glob', { pattern: '*\0.ts' }, 'pattern'],
  ['Grep', { pattern: 'x', path: 'src\0/..' }, 'path'],
];

describe('a NUL character in a path is refused at validation, before anyone is asked', () => {
  for (const [name, input, field] of CALLS) {
    it(`${name} ${field}`, async () => {
      let asked = false;
      const result = await callTool(toolNamed(tools, name), input, { answer: () => (asked = true) });
      expect(result).toMatchObject({ stage: 'validate', isError: true, text: expect.stringMatching(new RegExp(`^${field} ".*" contains a NUL character, which no file name can hold; give the path without it\\.$`)) });
      expect(asked).toBe(false);
    });
  }
});
