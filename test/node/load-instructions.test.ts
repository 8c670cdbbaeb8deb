import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { loadInstructions } from '../../src/node/load-instructions.js';

let base: string;
let repo: string;
let cwd: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'instructions-'));
  repo = path.join(base, 'repo');
  cwd = path.join(repo, 'packages', 'app');
  await mkdir(cwd, { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

const write = async (file: string, text: string) => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
};

describe('loadInstructions', () => {
  it('reads AGENTS.md and CLAUDE.md from the root down to cwd, nearest last', async () => {
    await write(path.join(base, 'AGENTS.md'), 'Outer rules.');
    await write(path.join(repo, 'AGENTS.md'), 'Repo rules.');
    await write(path.join(repo, 'CLAUDE.md'), 'Claude-specific repo rules.');
    await write(path.join(cwd, 'AGENTS.md'), 'App rules.');
    const loaded = await loadInstructions({ cwd, root: repo });
    expect(loaded.files.map((file) => file.shownPath)).toEqual([path.join('..', '..', 'AGENTS.md'), path.join('..', '..', 'CLAUDE.md'), 'AGENTS.md']);
    expect(loaded.text).toBe(
      [`# Instructions from ${path.join('..', '..', 'AGENTS.md')}\n\nRepo rules.`, `# Instructions from ${path.join('..', '..', 'CLAUDE.md')}\n\nClaude-specific repo rules.`, '# Instructions from AGENTS.md\n\nApp rules.'].join('\n\n'),
    );
    expect(loaded.warnings).toEqual([]);
    // Without a root the walk goes on to the filesystem root and finds the outer file too.
    expect((await loadInstructions({ cwd })).files.map((file) => file.content)).toContain('Outer rules.');
  });

  it('follows @imports relative to the importing file, once each, right after it', async () => {
    await write(path.join(repo, 'AGENTS.md'), 'Repo rules. Style: @docs/style.md\nAlso @docs/style.md again.');
    await write(path.join(repo, 'CLAUDE.md'), '@AGENTS.md');
    await write(path.join(repo, 'docs', 'style.md'), 'Use short sentences. See @./tone.md');
    await write(path.join(repo, 'docs', 'tone.md'), 'Friendly tone.');
    const loaded = await loadInstructions({ cwd, root: repo });
    expect(loaded.files.map((file) => [path.basename(file.path), file.depth, file.importedBy && path.basename(file.importedBy)])).toEqual([
      ['AGENTS.md', 0, undefined],
      ['style.md', 1, 'AGENTS.md'],
      ['tone.md', 2, 'style.md'],
      ['CLAUDE.md', 0, undefined],
    ]);
    expect(loaded.text).toContain(`(imported by ${path.join('..', '..', 'docs', 'style.md')})`);
    expect(loaded.warnings).toEqual([]);
  });

  it('cuts cycles and bounds the depth, saying so', async () => {
    await write(path.join(repo, 'AGENTS.md'), 'Start @a.md');
    await write(path.join(repo, 'a.md'), 'A @b.md');
    await write(path.join(repo, 'b.md'), 'B @a.md and @c.md');
    await write(path.join(repo, 'c.md'), 'C @d.md');
    await write(path.join(repo, 'd.md'), 'D');
    const loaded = await loadInstructions({ cwd, root: repo, maxImportDepth: 3 });
    expect(loaded.files.map((file) => path.basename(file.path))).toEqual(['AGENTS.md', 'a.md', 'b.md', 'c.md']);
    expect(loaded.warnings.some((warning) => warning.includes('cycle'))).toBe(true);
    expect(loaded.warnings.some((warning) => warning.includes('@d.md is more than 3 imports deep'))).toBe(true);
    expect(loaded.files.find((file) => file.path.endsWith('c.md'))!.content).toContain('[The import @d.md was not loaded: more than 3 imports deep.]');
  });

  it('never reads outside the tree of the file that starts the chain without saying so', async () => {
    await write(path.join(base, 'secret.txt'), 'TOP SECRET');
    await write(path.join(repo, 'AGENTS.md'), ['@../secret.txt', `@${path.join(base, 'secret.txt')}`, '@docs/link.md', '@missing.md'].join('\n'));
    await mkdir(path.join(repo, 'docs'));
    await symlink(path.join(base, 'secret.txt'), path.join(repo, 'docs', 'link.md'));
    const loaded = await loadInstructions({ cwd, root: repo });
    expect(loaded.text).not.toContain('TOP SECRET');
    expect(loaded.files).toHaveLength(1);
    const content = loaded.files[0]!.content;
    expect(content).toContain('[The import @../secret.txt was not loaded:');
    expect(content).toContain(`[The import @${path.join(base, 'secret.txt')} was not loaded:`);
    expect(content).toMatch(/\[The import @docs\/link\.md was not loaded: .* \(it leads to .*secret\.txt\)/);
    expect(content).toContain('[The import @missing.md was not loaded:');
    expect(loaded.warnings).toHaveLength(4);
    // Allowed on purpose, the same import is read.
    expect((await loadInstructions({ cwd, root: repo, allowImportsFrom: [base] })).text).toContain('TOP SECRET');
  });

  it('refuses an instructions file that is a link out of its directory', async () => {
    await write(path.join(base, 'secret.txt'), 'TOP SECRET');
    await symlink(path.join(base, 'secret.txt'), path.join(repo, 'AGENTS.md'));
    const loaded = await loadInstructions({ cwd, root: repo });
    expect(loaded.text).toBe('');
    expect(loaded.warnings[0]).toContain('is outside');
  });

  it.skipIf(process.platform === 'win32')('does not hang on a FIFO and cuts a huge file', async () => {
    execFileSync('mkfifo', [path.join(repo, 'AGENTS.md')]);
    await write(path.join(cwd, 'AGENTS.md'), 'x'.repeat(100));
    const loaded = await loadInstructions({ cwd, root: repo, maxFileBytes: 10 });
    expect(loaded.files.map((file) => file.content)).toEqual([`xxxxxxxxxx\n\n[AGENTS.md is cut here: it is longer than 10 bytes.]`]);
    expect(loaded.warnings).toEqual([expect.stringContaining('is not a regular file'), expect.stringContaining('longer than 10 bytes')]);
  });

  it('refuses a cwd outside root', async () => {
    await expect(loadInstructions({ cwd: base, root: repo })).rejects.toThrow(ConfigurationError);
    await expect(loadInstructions({ cwd: '' })).rejects.toThrow(ConfigurationError);
  });
});
