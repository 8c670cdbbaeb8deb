/**
 * The plan file's backups in Claude Code's file checkpoints, read from disk. The layout follows
 * the public description: sessions at `<claude>/projects/<project>/<sessionId>.jsonl`, backups at
 * `<claude>/file-history/<sessionId>/<hash>@v<n>`, named in `file-history-snapshot` lines. The
 * session files are synthetic (the fixtures' sessions never wrote a plan).
 */
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { readClaudeCodeSessionFile, type ReadClaudeCodeSessionFileOptions } from '../../../src/node/claude-code/read-claude-code-session-file.js';
import { recoverPlan } from '../../../src/plan/recover-plan.js';
import type { SessionEntry } from '../../../src/state/entries.js';
import { fileHistorySnapshot, user } from '../../interop/claude-code/claude-code-lines.js';

const SESSION = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const SLUG = 'quiet-copper-lantern';
const PLAN = `/home/user/.claude/plans/${SLUG}.md`;

let root: string;
let claude: string;
let sessionFile: string;

async function read(path: string, options: ReadClaudeCodeSessionFileOptions = {}) {
  const warnings: string[] = [];
  const reader = readClaudeCodeSessionFile(path, { ...options, onWarning: (warning) => warnings.push(warning.message) });
  const entries: SessionEntry[] = [];
  for await (const entry of reader) entries.push(entry);
  return { entries, warnings, snapshots: entries.filter((entry) => entry.kind === 'plan-snapshot') };
}

/** A session whose lines carry no session id (as file-history lines do not): the file name gives it. */
async function session(name: string, backups: Record<string, string | null>): Promise<string> {
  const path = join(claude, 'projects', '-home-user-project', `${name}.jsonl`);
  const lines = [
    JSON.stringify({ type: 'user', uuid: `${name}-1`, message: { role: 'user', content: 'plan it' }, slug: SLUG }),
    ...Object.entries(backups).map(([backupFileName], index) => fileHistorySnapshot({ [PLAN]: { backupFileName, version: index + 1 } })),
  ];
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'agent-harness-file-history-'));
  claude = join(root, '.claude');
  await mkdir(join(claude, 'projects', '-home-user-project'), { recursive: true });
  await mkdir(join(claude, 'file-history', SESSION), { recursive: true });
  await writeFile(join(claude, 'file-history', SESSION, 'a1b2c3d4e5f60718@v2'), '# The plan, from the file history');
  sessionFile = join(claude, 'projects', '-home-user-project', `${SESSION}.jsonl`);
  await writeFile(
    sessionFile,
    `${[user('plan it', { slug: SLUG, sessionId: SESSION }), fileHistorySnapshot({ [PLAN]: { backupFileName: 'a1b2c3d4e5f60718@v2', version: 2 } })].join('\n')}\n`,
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('readClaudeCodeSessionFile and the file history', () => {
  it('reads the plan backup from <claude dir>/file-history beside projects/, for recoverPlan', async () => {
    const { snapshots, warnings } = await read(sessionFile);
    expect(warnings).toEqual([]);
    expect(snapshots).toEqual([expect.objectContaining({ text: '# The plan, from the file history', name: `${SLUG}.md`, capturedFrom: 'file-history' })]);
    expect(await recoverPlan({ entries: readClaudeCodeSessionFile(sessionFile) })).toEqual({ text: '# The plan, from the file history', source: 'snapshot', name: `${SLUG}.md` });
  });

  it('takes the session id from the file name when the lines carry none', async () => {
    const id = '0b1c2d3e-0000-4000-8000-000000000001';
    await mkdir(join(claude, 'file-history', id), { recursive: true });
    await writeFile(join(claude, 'file-history', id, 'ffeeddccbbaa9988@v1'), '# Found by the file name');
    const { snapshots } = await read(await session(id, { 'ffeeddccbbaa9988@v1': null }));
    expect(snapshots).toEqual([expect.objectContaining({ text: '# Found by the file name', sessionId: id })]);
  });

  it('reads from the folder given, or not at all with fileHistoryDir: false', async () => {
    const elsewhere = join(root, 'copied-history');
    await mkdir(join(elsewhere, SESSION), { recursive: true });
    await writeFile(join(elsewhere, SESSION, 'a1b2c3d4e5f60718@v2'), '# From the copy');
    expect((await read(sessionFile, { fileHistoryDir: elsewhere })).snapshots).toEqual([expect.objectContaining({ text: '# From the copy' })]);
    expect((await read(sessionFile, { fileHistoryDir: false })).snapshots).toEqual([]);
    // A session file outside a projects/ folder has no file history unless one is given.
    const loose = join(root, `${SESSION}.jsonl`);
    await writeFile(loose, `${[user('x', { slug: SLUG, sessionId: SESSION }), fileHistorySnapshot({ [PLAN]: { backupFileName: 'a1b2c3d4e5f60718@v2', version: 2 } })].join('\n')}\n`);
    expect(await read(loose)).toMatchObject({ snapshots: [], warnings: [] });
  });

  it('warns, naming the file, when a backup is missing, a symlink, or too big to be a plan', async () => {
    const id = '0b1c2d3e-0000-4000-8000-000000000002';
    const dir = join(claude, 'file-history', id);
    await mkdir(dir, { recursive: true });
    await writeFile(join(root, 'secret.txt'), 'not for the reader');
    await symlink(join(root, 'secret.txt'), join(dir, '1111111111111111@v1'));
    await writeFile(join(dir, '2222222222222222@v1'), '');
    await truncate(join(dir, '2222222222222222@v1'), 9 * 1024 * 1024);
    const { snapshots, warnings } = await read(await session(id, { '0000000000000000@v1': null, '1111111111111111@v1': null, '2222222222222222@v1': null }));
    expect(snapshots).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(/0000000000000000@v1 does not exist/),
      expect.stringMatching(/1111111111111111@v1 is not a regular file/),
      expect.stringMatching(/2222222222222222@v1 holds 9437184 bytes, more than a plan/),
    ]);
  });

  it('never reads outside the file history, whatever session id a line claims', async () => {
    await writeFile(join(claude, 'file-history', 'a1b2c3d4e5f60718@v2'), '# one level up');
    const path = join(claude, 'projects', '-home-user-project', 'escape.jsonl');
    await writeFile(
      path,
      `${[user('x', { slug: SLUG, sessionId: '..' }), fileHistorySnapshot({ [PLAN]: { backupFileName: 'a1b2c3d4e5f60718@v2', version: 2 } })].join('\n')}\n`,
    );
    const { snapshots, warnings } = await read(path);
    expect(snapshots).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/the session id "\.\." or backup name .* is not a plain file name/)]);
  });

  it('refuses a fileHistoryDir that is neither a folder path nor false', () => {
    expect(() => readClaudeCodeSessionFile(sessionFile, { fileHistoryDir: 7 as never })).toThrow(ConfigurationError);
    expect(() => readClaudeCodeSessionFile(sessionFile, { fileHistoryDir: '' })).toThrow(/must be a folder path or false, got ""/);
  });
});
