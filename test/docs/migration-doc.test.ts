// docs/migrating-from-claude-agent-sdk.md maps the Claude Agent SDK's options: each one it names
// must either be an option of createAgent or fail with a hint saying what to write instead.
import { readFileSync } from 'node:fs';
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
