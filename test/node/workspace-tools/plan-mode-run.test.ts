import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicModel, createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { startMessagesServer, type MessagesServer, type MessagesServerTurn } from 'agent-harness/testing/messages-server';
import { tempDirs } from '../../temp-dirs.js';

const tempDir = tempDirs();

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Every file under a folder with its content hash and mtime: what "byte-identical" means here. */
function fingerprint(root: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else result[relative(root, path)] = `${createHash('sha256').update(readFileSync(path)).digest('hex')} ${statSync(path).mtimeMs}`;
    }
  };
  walk(root);
  return result;
}

function sampleWorkspace(): string {
  const root = tempDir('agent-harness-plan-ws-');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'README.md'), '# Sample\n\nA tiny project.\n');
  writeFileSync(join(root, 'src', 'index.js'), 'export const answer = 42;\n');
  return root;
}

const calls = (...blocks: Array<[string, string, unknown]>): MessagesServerTurn => ({
  content: blocks.map(([id, name, input]) => ({ type: 'tool_use', id, name, input })),
  stopReason: 'tool_use',
});

describe('plan mode with the workspace tools, through @anthropic-ai/sdk', () => {
  it('explores read-only, denies every write and writing command, and leaves the workspace byte-identical', async () => {
    const cwd = sampleWorkspace();
    const before = fingerprint(cwd);
    server = await startMessagesServer({
      responses: [
        calls(['r1', 'Read', { file_path: 'README.md' }], ['g1', 'Glob', { pattern: '**/*.js' }], ['s1', 'Grep', { pattern: 'answer', output_mode: 'content' }]),
        calls(['b1', 'Bash', { command: 'ls -la && wc -l README.md' }], ['b2', 'Bash', { command: 'cat src/index.js | head -5' }]),
        calls(
          ['w1', 'Write', { file_path: 'NOTES.md', content: 'plan' }],
          ['e1', 'Edit', { file_path: 'README.md', old_string: 'tiny', new_string: 'small' }],
          ['b3', 'Bash', { command: 'touch created.txt' }],
          ['b4', 'Bash', { command: 'echo hi > out.txt' }],
          ['b5', 'Bash', { command: 'ls; rm README.md' }],
          ['b6', 'Bash', { command: 'find . -name "*.js" -delete' }],
        ),
        { content: [{ type: 'text', text: 'I have a plan.' }] },
      ],
    });
    const asked: string[] = [];
    const agent = createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
      tools: workspaceTools({ cwd }),
      cwd,
      permissionMode: 'plan',
      canUseTool: (name) => (asked.push(name), { behavior: 'allow' }),
    });
    const result = await agent.run('Explore the project and plan a change.').result;
    expect(result.status).toBe('completed');
    expect(asked).toEqual([]);

    const resultsOf = (request: number) =>
      Object.fromEntries((server!.requests[request]!.messages.at(-1)!.content as Array<{ type: string; tool_use_id?: string; is_error?: boolean; content?: unknown }>)
        .filter((block) => block.type === 'tool_result')
        .map((block) => [block.tool_use_id, { error: block.is_error === true, text: JSON.stringify(block.content) }]));
    const explored = { ...resultsOf(1), ...resultsOf(2) };
    for (const id of ['r1', 'g1', 's1', 'b1', 'b2']) expect(explored[id]!.error, id).toBe(false);
    expect(explored.r1!.text).toContain('A tiny project.');
    expect(explored.g1!.text).toContain('index.js');
    expect(explored.s1!.text).toContain('answer');
    const attempts = resultsOf(3);
    for (const id of ['w1', 'e1', 'b3', 'b4', 'b5', 'b6']) {
      expect(attempts[id]!.error, id).toBe(true);
      expect(attempts[id]!.text, id).toMatch(/plan mode/i);
    }
    expect(fingerprint(cwd)).toEqual(before);
    expect(server.errors).toEqual([]);
  });

  it('in acceptEdits, edits in an additional directory run without asking; outside paths are asked', async () => {
    const cwd = sampleWorkspace();
    const extra = tempDir('agent-harness-extra-');
    const outside = tempDir('agent-harness-outside-');
    server = await startMessagesServer({
      responses: [
        calls(['w1', 'Write', { file_path: join(extra, 'a.md'), content: 'extra' }], ['w2', 'Write', { file_path: join(outside, 'b.md'), content: 'outside' }]),
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const asked: Array<{ name: string; blockedPath?: string }> = [];
    const agent = createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
      tools: workspaceTools({ cwd, additionalDirectories: [extra] }),
      cwd,
      permissionMode: 'acceptEdits',
      canUseTool: (name, _input, context) => (asked.push({ name, blockedPath: context.blockedPath }), { behavior: 'deny', message: 'not there' }),
    });
    await agent.run('Write two files.').result;
    expect(readFileSync(join(extra, 'a.md'), 'utf8')).toBe('extra');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.name).toBe('Write');
    expect(asked[0]!.blockedPath).toContain('b.md');
    expect(readdirSync(outside)).toEqual([]);
  });
});
