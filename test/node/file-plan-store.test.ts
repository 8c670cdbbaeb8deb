import { mkdtemp, readdir, readFile, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { filePlanStore } from '../../src/node/file-plan-store.js';
import { allocatePlanSlug } from '../../src/plan/allocate-plan-slug.js';
import { generatePlanSlug } from '../../src/plan/generate-plan-slug.js';
import { createAgent } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { drawSlugs } from '../plan/draw-slugs.js';
import { planFileName, planNameProblem } from '../../src/plan/plan-name.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agent-harness-plans-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('filePlanStore', () => {
  it('creates its directory on the first write only', async () => {
    const dir = join(root, 'nested', 'plans');
    const store = filePlanStore({ dir });
    expect(await store.list()).toEqual([]);
    expect(await store.read('a.md')).toBeUndefined();
    expect(await store.exists('a.md')).toBe(false);
    await expect(readdir(join(root, 'nested'))).rejects.toThrow();
    await store.write('a.md', '# A\n');
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('# A\n');
  });

  it('reads, replaces, checks and lists plans, leaving no temporary files', async () => {
    const store = filePlanStore({ dir: root });
    await store.write('quiet-copper-lantern.md', 'v1');
    await store.write('quiet-copper-lantern.md', 'v2 — ünïcödé');
    await store.write('quiet-copper-lantern-agent-a1.md', 'sub');
    await writeFile(join(root, '.quiet-copper-lantern.md.abc.tmp'), 'stray temp');
    await mkdir(join(root, 'subdir.md'));
    expect(await store.read('quiet-copper-lantern.md')).toBe('v2 — ünïcödé');
    expect(await store.exists('quiet-copper-lantern-agent-a1.md')).toBe(true);
    // Taken, though not a plan: a plan is never drawn onto it.
    expect(await store.exists('subdir.md')).toBe(true);
    expect(await store.list()).toEqual(['quiet-copper-lantern-agent-a1.md', 'quiet-copper-lantern.md']);
    expect((await readdir(root)).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  });

  it('writes every name planNameProblem accepts, up to 255 UTF-8 bytes, with a temporary name free of the plan name', async () => {
    const store = filePlanStore({ dir: root });
    const ascii = `${'a'.repeat(252)}.md`;
    const multibyte = `${'é'.repeat(126)}.md`; // 252 + 3 bytes
    for (const name of [ascii, multibyte]) {
      expect(planNameProblem(name)).toBeUndefined();
      await store.write(name, 'x');
      expect(await store.read(name)).toBe('x');
    }
    expect(await store.list()).toEqual([ascii, multibyte].sort());
    expect((await readdir(root)).filter((name) => name.startsWith('.'))).toEqual([]);
    await expect(store.write(`${'é'.repeat(127)}.md`, 'x')).rejects.toThrow(/at most 255 bytes in UTF-8/);
  });

  it('never writes outside its directory', async () => {
    const store = filePlanStore({ dir: join(root, 'plans') });
    for (const name of ['../escape.md', 'a/b.md', '..\\x.md', '..', '.hidden.md', '']) {
      await expect(store.write(name, 'x')).rejects.toSatisfy(ConfigurationError.isInstance);
      await expect(store.read(name)).rejects.toThrow(/Invalid plan name/);
    }
    expect(await readdir(root)).toEqual([]);
  });

  it('replaces a symlink at the plan path instead of writing through it', async () => {
    const outside = join(root, 'outside.md');
    await writeFile(outside, 'precious');
    const dir = join(root, 'plans');
    await mkdir(dir);
    await symlink(outside, join(dir, 'p.md'));
    await filePlanStore({ dir }).write('p.md', 'new plan');
    expect(await readFile(outside, 'utf8')).toBe('precious');
    expect(await readFile(join(dir, 'p.md'), 'utf8')).toBe('new plan');
  });

  it('reads no plan through a symlink or from a FIFO at a plan name, as list() skips them', async () => {
    const outside = join(root, 'secret.txt');
    await writeFile(outside, 'API_KEY=sk-live-123');
    const dir = join(root, 'plans');
    await mkdir(dir);
    await symlink(outside, join(dir, 'linked.md'));
    execFileSync('mkfifo', [join(dir, 'pipe.md')]);
    await writeFile(join(dir, 'real.md'), '# Real plan\n');
    const store = filePlanStore({ dir });
    expect(await store.read('linked.md')).toBeUndefined();
    // Opening a FIFO for reading would wait for a writer for ever: the test's timeout is the failure.
    expect(await store.read('pipe.md')).toBeUndefined();
    expect(await store.read('real.md')).toBe('# Real plan\n');
    expect(await store.list()).toEqual(['real.md']);
    expect(await store.exists('linked.md')).toBe(true);
  });

  it('a directory at a plan name holds it: exists says so, and a session that draws that name saves its plan under another', async () => {
    const store = filePlanStore({ dir: root });
    const taken = `${generatePlanSlug(() => 0.005)}.md`;
    await mkdir(join(root, taken), { recursive: true });
    expect(await store.exists(taken)).toBe(true);
    drawSlugs([0, 0, 0], [4, 4, 4]);
    const agent = createAgent({ model: scriptedModel([]), planStore: store });
    const saved = await agent.savePlan('The plan');
    expect(saved.name).not.toBe(taken);
    expect(await store.read(saved.name)).toBe('The plan');
    expect(await store.list()).toEqual([saved.name]);
  });

  it('needs a directory', () => {
    expect(() => filePlanStore({} as never)).toThrow("filePlanStore: `dir` is required, as in filePlanStore({ dir: \"./.plans\" }).");
  });

  it('keeps a plan across store instances and avoids taken names', async () => {
    const first = filePlanStore({ dir: root });
    const slug = await allocatePlanSlug({ store: first, random: () => 0.5 });
    await first.write(planFileName({ slug }), 'plan');
    const second = filePlanStore({ dir: root });
    expect(await second.read(planFileName({ slug }))).toBe('plan');
    let calls = 0;
    const next = await allocatePlanSlug({ store: second, random: () => (calls++ < 3 ? 0.5 : 0.25) });
    expect(next).not.toBe(slug);
  });

  it('survives concurrent writes of the same plan with one complete text', async () => {
    const store = filePlanStore({ dir: root });
    const texts = Array.from({ length: 20 }, (_, index) => `version ${index} `.repeat(500));
    await Promise.all(texts.map((text) => store.write('race.md', text)));
    expect(texts).toContain(await store.read('race.md'));
    expect(await store.list()).toEqual(['race.md']);
  });
});
