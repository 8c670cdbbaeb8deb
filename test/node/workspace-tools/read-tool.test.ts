import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { READ_STATE_KEY_PREFIX } from '../../../src/node/workspace-tools/tool-state-records.js';
import type { Tool } from '../../../src/tools/types.js';
import { callTool, fakeAgent, makeTempDir, toolNamed } from './helpers.js';

let work: string;
let read: Tool;

beforeEach(async () => {
  work = await makeTempDir('ws-read-');
  read = toolNamed(workspaceTools({ cwd: work, maxReadBytes: 1000, maxReadLines: 50 }), 'Read');
});

afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

const lines = (count: number, prefix = 'line') => Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`).join('\n') + '\n';

describe('Read', () => {
  it('is a read-only, concurrency-safe read tool with a path rule target', () => {
    expect(read).toMatchObject({ kind: 'read', readOnly: true, concurrencySafe: true, ruleTarget: { field: 'file_path', kind: 'path' } });
  });

  it('numbers lines like cat -n and records the read', async () => {
    await fs.writeFile(path.join(work, 'a.txt'), 'first\r\nsecond\n\tthird');
    const agent = fakeAgent();
    const result = await callTool(read, { file_path: 'a.txt' }, { agent });
    expect(result.text).toBe('     1\tfirst\n     2\tsecond\n     3\t\tthird');
    const record = agent.state.get(READ_STATE_KEY_PREFIX + path.join(work, 'a.txt')) as { sha256: string; mtimeMs: number };
    expect(record.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(record.mtimeMs).toBe((await fs.stat(path.join(work, 'a.txt'))).mtimeMs);
  });

  it('reads a window with offset and limit, and says where to continue', async () => {
    await fs.writeFile(path.join(work, 'long.txt'), lines(30));
    const result = await callTool(read, { file_path: path.join(work, 'long.txt'), offset: 10, limit: 3 });
    expect(result.text).toBe('    10\tline 10\n    11\tline 11\n    12\tline 12\n\n[Showing lines 10-12 of 30 (stopped at the line limit). Continue with offset=13.]');
    expect((await callTool(read, { file_path: 'long.txt', offset: 31 })).text).toMatch(/has 30 lines; offset 31 is past the end/);
  });

  it('stops at the byte limit with a note, also for a large file', async () => {
    await fs.writeFile(path.join(work, 'big.txt'), lines(200_000, 'a fairly long line of text number'));
    const result = await callTool(read, { file_path: 'big.txt' });
    expect(result.isError).toBe(false);
    expect(result.text.length).toBeLessThan(1400);
    expect(result.text).toMatch(/\[Showing lines 1-\d+ of 200000 \(stopped at the 1000-byte limit of one read\)\. Continue with offset=\d+\.\]$/);
    const later = await callTool(read, { file_path: 'big.txt', offset: 199_999 });
    expect(later.text).toBe('199999\ta fairly long line of text number 199999\n200000\ta fairly long line of text number 200000');
  });

  it('uses the default line limit', async () => {
    await fs.writeFile(path.join(work, 'many.txt'), lines(80, 'x'));
    expect((await callTool(read, { file_path: 'many.txt' })).text).toMatch(/Showing lines 1-50 of 80 \(stopped at the line limit\)/);
  });

  it('cuts very long lines', async () => {
    await fs.writeFile(path.join(work, 'wide.txt'), `${'x'.repeat(5000)}\nshort\n`);
    const tools = workspaceTools({ cwd: work });
    const result = await callTool(toolNamed(tools, 'Read'), { file_path: 'wide.txt' });
    expect(result.text).toBe(`     1\t${'x'.repeat(2000)} ... [line truncated]\n     2\tshort`);
  });

  it('refuses binary files with a clear result, and still records the read', async () => {
    await fs.writeFile(path.join(work, 'blob.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    const agent = fakeAgent();
    const result = await callTool(read, { file_path: 'blob.bin' }, { agent });
    expect(result).toMatchObject({ isError: true, text: expect.stringMatching(/blob\.bin is a binary file \(8 bytes\)/) });
    expect([...agent.state.keys()]).toEqual([READ_STATE_KEY_PREFIX + path.join(work, 'blob.bin')]);
  });

  it('returns images as image blocks', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]);
    await fs.writeFile(path.join(work, 'pixel.png'), png);
    const result = await callTool(read, { file_path: 'pixel.png' });
    expect(result.raw).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } }]);
  });

  it('reports empty files, directories, missing files and FIFOs without hanging', async () => {
    await fs.writeFile(path.join(work, 'empty.txt'), '');
    await fs.mkdir(path.join(work, 'dir'));
    expect((await callTool(read, { file_path: 'empty.txt' })).text).toBe('(empty.txt exists but is empty.)');
    expect((await callTool(read, { file_path: 'dir' })).text).toMatch(/is a directory/);
    expect(await callTool(read, { file_path: 'nope.txt' })).toMatchObject({ isError: true, text: 'File does not exist: nope.txt' });
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(work, 'pipe')]);
    expect(await callTool(read, { file_path: 'pipe' })).toMatchObject({ isError: true, text: expect.stringMatching(/not a regular file/) });
  });

  it('rejects bad input at the schema', async () => {
    expect((await callTool(read, { file_path: '' })).stage).toBe('parse');
    expect((await callTool(read, { file_path: 'a', limit: 0 })).stage).toBe('parse');
    expect((await callTool(read, { path: 'a' })).stage).toBe('parse');
  });
});
