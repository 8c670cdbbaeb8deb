// docs/migrating-from-claude-agent-sdk.md names, for each Claude Agent SDK option, the call to make
// here. Each one is made below as the table writes it (a renamed option or a changed shape fails
// to compile or to run), offline on the scripted model.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, createAgent, recoverPlan, type Agent } from 'agent-harness';
import { fileSessionStore, loadInstructions, readClaudeCodeSessionFile, workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { zod3Schema } from 'agent-harness/zod3';

const dirs: string[] = [];
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'migration-table-'));
  dirs.push(dir);
  return dir;
}

describe('the migration guide’s options table, as written', () => {
  it('maxThinkingTokens and fallbackModel: anthropicModel({ model, thinking, maxRetries })', () => {
    const model = anthropicModel({ model: 'claude-sonnet-4-6', thinking: { type: 'enabled', budget_tokens: 4096 }, maxRetries: 3 });
    expect(typeof model.stream).toBe('function');
  });

  it('cwd, additionalDirectories, env, enableFileCheckpointing: workspaceTools({ cwd, additionalDirectories, env, inheritEnv }) and agent.rewindFiles({ toMessage })', async () => {
    const cwd = tempDir();
    const shared = tempDir();
    writeFileSync(join(cwd, 'notes.md'), 'before');
    const agent = createAgent({
      // Write replaces a file the model has read, as Claude Code's does.
      model: scriptedModel([turn(toolCall('Read', { file_path: join(cwd, 'notes.md') }, 'r1')), turn(toolCall('Write', { file_path: join(cwd, 'notes.md'), content: 'after' }, 'w1')), 'Done.']),
      tools: workspaceTools({ cwd, additionalDirectories: [shared], env: { NOTES_ENV: '1' }, inheritEnv: ['LANG'] }),
      permissionMode: 'acceptEdits',
    });
    agents.push(agent);
    await agent.run('Rewrite the notes.').result;
    expect(readFileSync(join(cwd, 'notes.md'), 'utf8')).toBe('after');
    const toMessage = agent.messages.findIndex((message) => JSON.stringify(message.content).includes('"w1"'));
    const rewound = await agent.rewindFiles({ toMessage });
    expect(rewound.restored.length).toBe(1);
    expect(readFileSync(join(cwd, 'notes.md'), 'utf8')).toBe('before');
  });

  it('abortController, outputFormat, resume/continue, forkSession: run options, createAgent({ store, resume }), agent.fork()', async () => {
    const dir = tempDir();
    const store = fileSessionStore({ dir });
    const controller = new AbortController();
    const agent = createAgent({ model: scriptedModel(['First.', 'Second.']), store });
    agents.push(agent);
    const result = await agent.run('Hello.', { signal: controller.signal }).result;
    expect(result.status).toBe('completed');
    const snapshot = agent.snapshot();
    await agent.close();
    const resumed = createAgent({ model: scriptedModel(['Again.']), store, resume: agent.sessionId });
    agents.push(resumed);
    await resumed.ready;
    expect(resumed.messages.length).toBe(agent.messages.length);
    const fork = await resumed.fork();
    agents.push(fork);
    expect(fork.sessionId).not.toBe(resumed.sessionId);
    const fromSnapshot = createAgent({ model: scriptedModel([]), resume: snapshot });
    agents.push(fromSnapshot);
    expect(fromSnapshot.messages.length).toBe(agent.messages.length);
    // outputFormat: a per-run schema; its type reaches result.output.
    const typed = async () => (await fromSnapshot.run('Count.', { outputSchema: z.object({ count: z.number() }) }).result).output?.count;
    void typed;
  });

  it('settingSources: loadInstructions({ cwd }) from agent-harness/node reads CLAUDE.md', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.git'));
    writeFileSync(join(cwd, 'CLAUDE.md'), 'Use tabs.');
    const loaded = await loadInstructions({ cwd });
    expect(JSON.stringify(loaded)).toContain('Use tabs.');
  });

  it('the names the guide gives for tools and Claude Code sessions are exported where it says', () => {
    expect(typeof zod3Schema).toBe('function');
    expect(typeof readClaudeCodeSessionFile).toBe('function');
    expect(typeof recoverPlan).toBe('function');
  });
});
