// A workspace tool refuses input fields it does not have (Claude Code's `run_in_background` on
// Bash, a misspelt `replace_all`), so the model is never told an option took effect that was
// silently dropped.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import type { Tool } from '../../../src/tools/types.js';
import { makeTempDir } from './helpers.js';

let work: string;
let tools: Tool[];
beforeEach(async () => {
  work = await makeTempDir('ws-unknown-fields-');
  await fs.writeFile(path.join(work, 'notes.md'), 'one\none\n');
  tools = workspaceTools({ cwd: work });
});
afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

/** Runs one call in `bypassPermissions` (nothing asked) and returns the result the model got. */
async function resultOf(name: string, input: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const agent = createAgent({
    model: scriptedModel([turn(toolCall(name, input, 'c1')), 'Done.']),
    tools,
    permissionMode: 'bypassPermissions',
    allowDangerouslySkipPermissions: true,
  });
  const results: { text: string; isError: boolean }[] = [];
  agent.on('tool-result', (event) => {
    results.push({ text: typeof event.content === 'string' ? event.content : JSON.stringify(event.content), isError: event.isError });
  });
  expect((await agent.run('Go.').result).status).toBe('completed');
  await agent.close();
  expect(results).toHaveLength(1);
  return results[0]!;
}

describe('workspace tools refuse unknown input fields', () => {
  it('Bash with run_in_background does not run, and the model is told which field', async () => {
    const result = await resultOf('Bash', { command: 'echo ran > ran.txt', run_in_background: true });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('Unrecognized key: "run_in_background" (the fields it takes: command, timeout, description)');
    await expect(fs.access(path.join(work, 'ran.txt'))).rejects.toThrow();
  });

  it('Edit with a misspelt replace_all changes nothing', async () => {
    const result = await resultOf('Edit', { file_path: path.join(work, 'notes.md'), old_string: 'one', new_string: 'two', replaceAll: true });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('replaceAll');
    expect(await fs.readFile(path.join(work, 'notes.md'), 'utf8')).toBe('one\none\n');
  });

  it('each workspace tool refuses an extra field, and its schema says so', async () => {
    const inputs: Record<string, Record<string, unknown>> = {
      Read: { file_path: path.join(work, 'notes.md') },
      Write: { file_path: path.join(work, 'new.md'), content: 'x' },
      Glob: { pattern: '*.md' },
      Grep: { pattern: 'one' },
      Bash: { command: 'true' },
      Edit: { file_path: path.join(work, 'notes.md'), old_string: 'one\none', new_string: 'x' },
    };
    for (const tool of tools) {
      const input = inputs[tool.name];
      if (!input) continue;
      const accepted = await resultOf(tool.name, input);
      // Edit of a file not read in the session is refused for that, not for its input's shape.
      if (tool.name !== 'Edit') expect(accepted.isError, `${tool.name}: ${accepted.text}`).toBe(false);
      expect(accepted.text, tool.name).not.toContain('pages');
      const refused = await resultOf(tool.name, { ...input, pages: '1-2' });
      expect(refused.isError, tool.name).toBe(true);
      expect(refused.text, tool.name).toContain('pages');
    }
    await expect(fs.access(path.join(work, 'new.md'))).resolves.toBeUndefined();
    const sent: unknown[] = [];
    const model = scriptedModel(['Hi.']);
    const agent = createAgent({ model: { ...model, async *stream(request) { sent.push(request.tools); yield* model.stream(request); } }, tools });
    await agent.run('Hi').result;
    await agent.close();
    for (const definition of sent[0] as { name: string; inputSchema?: { additionalProperties?: unknown }; input_schema?: { additionalProperties?: unknown } }[]) {
      if (!inputs[definition.name]) continue;
      expect((definition.inputSchema ?? definition.input_schema)?.additionalProperties, definition.name).toBe(false);
    }
  });
});

describe('the fields an object takes are named for an unknown one, at any depth', () => {
  it('a nested object and an array item name their own fields', async () => {
    const { z } = await import('zod');
    const { compileInputSchema } = await import('../../../src/tools/input-schema.js');
    const schema = compileInputSchema('nested', z.strictObject({ outer: z.strictObject({ inner: z.string() }), list: z.array(z.strictObject({ id: z.number() })) }));
    const parsed = schema.parse({ outer: { inner: 'a', extra: 1 }, list: [{ id: 1, name: 'x' }] });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.issues).toEqual([
      'outer: Unrecognized key: "extra" (the fields it takes: inner)',
      'list.0: Unrecognized key: "name" (the fields it takes: id)',
    ]);
    // A key named like an Object.prototype member finds no schema, and no guess is printed.
    const odd = compileInputSchema('odd', z.object({ constructor: z.strictObject({ a: z.string() }) }));
    const refused = odd.parse({ constructor: { a: 'x', b: 1 } });
    expect(!refused.ok && refused.issues).toEqual(['constructor: Unrecognized key: "b" (the fields it takes: a)']);
  });
});
