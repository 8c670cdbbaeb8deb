import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMessagesServer, type MessagesServerResponse } from 'agent-harness/testing/messages-server';

/**
 * The README's first hour, run as written: each TypeScript block of "Quickstart", "Structured
 * output", "Traces" and "Testing your own agent" is pasted into a host of its own (a folder outside
 * the repository whose node_modules holds the built package and its peers, as `npm install` would
 * leave it) and run with tsx. The blocks that call `anthropicModel` without a `baseURL` reach the
 * loopback Messages server through the SDK's own `ANTHROPIC_BASE_URL`, as a host would point it
 * at a proxy. readme.test.ts only type-checks the blocks; this runs them.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const built = existsSync(join(root, 'dist', 'index.js'));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The TypeScript blocks of the README section headed `## heading`. */
function blocksOf(heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "${heading}"`).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

let host: string;

beforeAll(() => {
  host = mkdtempSync(join(tmpdir(), 'agent-harness-readme-host-'));
  writeFileSync(join(host, 'package.json'), JSON.stringify({ name: 'readme-host', private: true, type: 'module' }));
  const link = (name: string, target: string) => {
    mkdirSync(dirname(join(host, 'node_modules', name)), { recursive: true });
    symlinkSync(target, join(host, 'node_modules', name), 'dir');
  };
  link('agent-harness', root);
  for (const name of ['zod', '@anthropic-ai/sdk', '@opentelemetry/api']) link(name, join(root, 'node_modules', name));
});

afterAll(() => {
  rmSync(host, { recursive: true, force: true });
});

/** Runs `source` as a file of the host, against a loopback server answering `responses`; its stdout. */
async function runInHost(name: string, source: string, responses: MessagesServerResponse[]): Promise<{ stdout: string; requests: number }> {
  const file = join(host, `${name}.ts`);
  writeFileSync(file, source);
  const server = await startMessagesServer({ responses });
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', pathToFileURL(join(root, 'node_modules/tsx/dist/esm/index.mjs')).href, file], {
      cwd: host,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url },
    });
    return { stdout, requests: server.requests.length };
  } finally {
    await server.close();
  }
}

describe('the README snippets of the first hour, run as written in a host', () => {
  it('the package is built (run `npm run build` first; `npm test` does)', () => {
    expect(built).toBe(true);
  });

  it('Quickstart: streams the text, shows the tool call, and prints status, usage and cost', { timeout: 90_000 }, async () => {
    const [quickstart] = blocksOf('Quickstart');
    const { stdout, requests } = await runInHost('quickstart', quickstart!, [
      { content: [{ type: 'text', text: 'Counting.' }, { type: 'tool_use', id: 'toolu_count', name: 'word_count', input: { text: 'the quick brown fox' } }], stopReason: 'tool_use' },
      { content: [{ type: 'text', text: 'There are 4 words.' }] },
    ]);
    expect(requests).toBe(2);
    expect(stdout).toContain('Counting.');
    expect(stdout).toContain("→ word_count { text: 'the quick brown fox' }");
    expect(stdout).toContain('There are 4 words.');
    expect(stdout).toMatch(/completed \{\s+inputTokens: \d+,\s+outputTokens: \d+/);
    // costUsd is a number for a known model.
    expect(stdout.trim()).toMatch(/\} \d+(\.\d+)?(e-\d+)?$/);
  });

  it('Structured output: prints the typed sections', { timeout: 90_000 }, async () => {
    const [structured] = blocksOf('Structured output');
    const { stdout } = await runInHost('structured', structured!, [{ content: [{ type: 'text', text: '{"title":"Tide pools","sections":["Intro","Life in the rock basin"]}' }] }]);
    expect(stdout).toContain("[ 'Intro', 'Life in the rock basin' ]");
  });

  it('Traces: the agent made with a tracer from @opentelemetry/api runs', { timeout: 90_000 }, async () => {
    const [traces] = blocksOf('Traces');
    const { stdout } = await runInHost('traces', `${traces!}\nconst result = await agent.run('hi').result;\nconsole.log(result.status, result.text);\n`, [{ content: [{ type: 'text', text: 'Hello.' }] }]);
    expect(stdout.trim()).toBe('completed Hello.');
  });

  it('Testing your own agent: the scripted model and the real client on the loopback server', { timeout: 90_000 }, async () => {
    const [testing] = blocksOf('Testing your own agent');
    // The block starts its own loopback server; the one runInHost starts is not called.
    const { stdout, requests } = await runInHost('testing', testing!, []);
    expect(requests).toBe(0);
    // The scripted run's status and requests, then the loopback server's connections: one, kept for the run.
    expect(stdout.trim()).toBe('completed 2\n1');
  });

  it('"How it compares" claims no limit the README itself contradicts: subagents are built in, and the bench it cites exists', () => {
    const start = readme.indexOf('\n## How it compares\n');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    expect(readme).toContain('\n## Subagents\n');
    expect(section).not.toMatch(/no built-in subagents/);
    expect(existsSync(join(root, 'bench', 'README.md'))).toBe(true);
  });
});
