/**
 * The package as a user gets it: `npm pack` of the built package, unpacked into a fresh project's
 * node_modules, then every entry point imported through `import` and `require`, and its types
 * resolved with `moduleResolution: node10` (through `typesVersions`) and `node16`.
 * (That `npm pack` and a git install build `dist/` by themselves is the `prepare` script's job.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  typesVersions: Record<string, Record<string, string[]>>;
};
const ENTRY_POINTS = ['agent-harness', 'agent-harness/node', 'agent-harness/testing', 'agent-harness/testing/messages-server'];

let work: string;
let project: string;
let packedFiles: string[];

beforeAll(() => {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('The package test packs the built package: run `npm run build` first (`npm test` does).');
  work = mkdtempSync(join(tmpdir(), 'agent-harness-installed-'));
  // --ignore-scripts: `prepare` would build again; `npm test` has just built.
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' })) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packedFiles = packed!.files.map((file) => file.path);
  project = join(work, 'project');
  const installed = join(project, 'node_modules/agent-harness');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, packed!.filename), '-C', installed, '--strip-components=1']);
  // The dependencies and peers, as an install would put them beside it (taken from this checkout: no network).
  for (const name of [...Object.keys(manifest.dependencies), 'zod', '@anthropic-ai/sdk']) {
    const target = join(project, 'node_modules', name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), target, 'dir');
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'host-app', private: true }));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function node(args: string[]): unknown {
  const output = execFileSync(process.execPath, args, { cwd: project, encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').at(-1)!);
}

const report = `JSON.stringify({
  core: typeof core.createAgent, node: typeof node.workspaceTools, testing: typeof testing.scriptedModel,
  server: typeof server.startMessagesServer, nodeFree: !('startMessagesServer' in testing),
})`;
const expected = { core: 'function', node: 'function', testing: 'function', server: 'function', nodeFree: true };

describe('the installed package', () => {
  it('builds itself when installed from git or packed: `prepare` runs the build', () => {
    expect(manifest.scripts.prepare).toBe('npm run build');
  });

  it('packs dist with every entry point, and no sources or tests', () => {
    for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/node/index.js', 'dist/testing/index.cjs', 'dist/testing/messages-server/index.d.cts', 'README.md', 'LICENSE', 'package.json']) {
      expect(packedFiles).toContain(file);
    }
    expect(packedFiles.filter((file) => !/^(dist\/|README\.md$|CHANGELOG\.md$|LICENSE$|package\.json$)/.test(file))).toEqual([]);
  });

  it('imports every entry point with `import`', () => {
    const script = `const [core, node, testing, server] = await Promise.all(${JSON.stringify(ENTRY_POINTS)}.map((name) => import(name)));\nconsole.log(${report});`;
    expect(node(['--input-type=module', '-e', script])).toEqual(expected);
  });

  it('requires every entry point with `require`', () => {
    const script = `const [core, node, testing, server] = ${JSON.stringify(ENTRY_POINTS)}.map((name) => require(name));\nconsole.log(${report});`;
    expect(node(['--input-type=commonjs', '-e', script])).toEqual(expected);
  });

  it('lists a typesVersions path for every subpath export', () => {
    const subpaths = Object.keys(manifest.exports).filter((key) => key !== '.' && key !== './package.json').map((key) => key.slice(2));
    expect(Object.keys(manifest.typesVersions['*']!).sort()).toEqual(subpaths.sort());
  });

  it.each(['node10', 'node16', 'bundler'])('type-checks a host app with moduleResolution %s', (moduleResolution) => {
    const dir = join(project, `types-${moduleResolution}`);
    mkdirSync(dir, { recursive: true });
    const module = moduleResolution === 'node10' ? 'commonjs' : moduleResolution === 'node16' ? 'node16' : 'esnext';
    writeFileSync(
      join(dir, 'tsconfig.json'),
      // skipLibCheck as host apps have it: a declaration that does not resolve still fails the check.
      JSON.stringify({ compilerOptions: { module, moduleResolution, target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, esModuleInterop: true, lib: ['es2022', 'dom'] }, files: ['app.ts'] }),
    );
    writeFileSync(
      join(dir, 'app.ts'),
      [
        "import { createAgent, type AgentOptions, type ToolDisplay } from 'agent-harness';",
        "import { workspaceTools, type WorkspaceToolsOptions } from 'agent-harness/node';",
        "import { scriptedModel, type ScriptedModel } from 'agent-harness/testing';",
        "import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';",
        "const model: ScriptedModel = scriptedModel(['hi']);",
        'const options: AgentOptions = { model };',
        'export const agent = createAgent(options);',
        "export const tools: WorkspaceToolsOptions = { cwd: '.' };",
        'export type Types = [ToolDisplay, MessagesServer, typeof workspaceTools, typeof startMessagesServer];',
        '// @ts-expect-error: the types are real, so a wrong option is an error',
        "createAgent({ model, systemPrompt: 'x' });",
      ].join('\n'),
    );
    let output = '';
    try {
      // Node's own declarations come from this checkout (the host app has none installed).
      execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir, '--typeRoots', join(root, 'node_modules/@types'), '--types', 'node'], { cwd: dir, encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 120_000);
});
