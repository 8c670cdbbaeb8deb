// docs/migrating-from-claude-agent-sdk.md maps the Claude Agent SDK's options: each one it names
// must either be an option of createAgent or fail with a hint saying what to write instead.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(join(root, 'docs/migrating-from-claude-agent-sdk.md'), 'utf8');
const optionsTable = doc.split('## Options')[1]!.split('\n## ')[0]!;
const names = [...optionsTable.matchAll(/^\| ([^|]+) \|/gm)]
  .map((match) => match[1]!)
  .filter((cell) => cell !== 'Claude Agent SDK' && !cell.startsWith('---'))
  .flatMap((cell) => [...cell.matchAll(/`([A-Za-z]+)`/g)].map((name) => name[1]!));

function messageFor(name: string): string {
  try {
    createAgent({ model: scriptedModel([]), [name]: Symbol('probe') } as never);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('docs/migrating-from-claude-agent-sdk.md', () => {
  it('names the options it maps', () => {
    expect(names).toEqual(expect.arrayContaining(['systemPrompt', 'allowedTools', 'disallowedTools', 'canUseTool', 'outputFormat', 'settingSources']));
    expect(names.length).toBeGreaterThan(20);
  });

  it.each(names)('`%s` is an option of createAgent or gets a hint naming what to use', (name) => {
    const message = messageFor(name);
    if (!message.includes('is not an option of createAgent')) return; // an option here too (its value was refused)
    expect(message, name).not.toContain('Its options are');
    expect(message, name).toMatch(/is not an option of createAgent; \S/);
  });
});

describe('docs/migrating-from-claude-agent-sdk.md options table and hints agree', () => {
  const rows = [...optionsTable.matchAll(/^\| ([^|]+) \| (.+) \|$/gm)].filter((row) => row[1] !== 'Claude Agent SDK' && !row[1]!.startsWith('---'));
  const cases = rows.flatMap((row) => {
    const replacements = [...row[2]!.matchAll(/`([^`]+)`/g)].map((match) => /[A-Za-z]+/.exec(match[1]!)?.[0]).filter((word): word is string => word !== undefined);
    return [...row[1]!.matchAll(/`([A-Za-z]+)`/g)].map((match) => [match[1]!, replacements] as const);
  });

  it.each(cases)('the hint for `%s` names what the table says to use', (name, replacements) => {
    const message = messageFor(name);
    if (!message.includes('is not an option of createAgent') || replacements.length === 0) return;
    expect(replacements.some((word) => message.includes(word)), `${message}\nexpected one of: ${replacements.join(', ')}`).toBe(true);
  });
});

describe('docs/migrating-from-claude-agent-sdk.md code', () => {
  it('every TypeScript block type-checks against the package, as pasted into a host', () => {
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const dir = join(root, 'temp', 'migration-doc-blocks');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    blocks.forEach((block, index) => writeFileSync(join(dir, `block-${index + 1}.ts`), `${block}\nexport {};\n`));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true, noUnusedLocals: false }, include: ['*.ts'] }));
    let output = '';
    try {
      execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: root, encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 120_000);
});
