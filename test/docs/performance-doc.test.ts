// docs/performance.md tells hosts which commands measure what and which settings change the cost:
// each command must be a script of the package, and each setting a name of its public API.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(join(root, 'docs/performance.md'), 'utf8');
const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
const reports = ['agent-harness.api.md', 'agent-harness-postgres.api.md'].map((file) => readFileSync(join(root, 'api', file), 'utf8')).join('\n');

describe('docs/performance.md', () => {
  it('names only npm scripts the package has', () => {
    const named = [...doc.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((name) => !scripts.includes(name))).toEqual([]);
  });

  it('names only settings of the public API', () => {
    const settings = [...doc.matchAll(/^- \*\*`([^`]+)`\*\*/gm)].map((match) => match[1]!);
    const names = settings.flatMap((setting) => [...setting.matchAll(/([A-Za-z]\w*)(?=\s*[:(?,}]|\s*$)/g)].map((match) => match[1]!)).filter((name) => !['true', 'prompt', 'name', 'server', 'run'].includes(name));
    expect(names).toEqual(expect.arrayContaining(['bufferEvents', 'anthropicModel', 'promptCaching', 'ttl', 'context', 'clearing', 'compaction', 'spill', 'postgresSessionStore', 'preparedStatements', 'sharedMcpServer', 'deferLoading']));
    expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(reports))).toEqual([]);
  });
});
