import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicModel, createAgent } from 'agent-harness';
import { validateMessagesRequest } from 'agent-harness/testing';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';
import { notesTools } from '../fixtures/notes-tools.js';
import { tempDirs } from '../temp-dirs.js';

const tempDir = tempDirs();

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function executions(logFile: string): Array<{ tool: string; input: Record<string, string> }> {
  const text = readFileSync(logFile, 'utf8').trim();
  return text ? text.split('\n').map((line) => JSON.parse(line)) : [];
}

describe('approvals that wait', () => {
  it('survive JSON and a new process: approve one with an edited input, deny another; nothing runs twice', async () => {
    const dir = tempDir('agent-harness-approval-');
    const logFile = join(dir, 'executions.jsonl');
    writeFileSync(logFile, '');
    server = await startMessagesServer({
      responses: [
        {
          content: [
            { type: 'text', text: 'Reading, then writing two notes.' },
            { type: 'tool_use', id: 'toolu_read', name: 'read_note', input: { name: 'brief.md' } },
            { type: 'tool_use', id: 'toolu_a', name: 'write_note', input: { name: 'a.md', text: 'first draft' } },
            { type: 'tool_use', id: 'toolu_b', name: 'write_note', input: { name: 'b.md', text: 'second draft' } },
          ],
          stopReason: 'tool_use',
        },
        { content: [{ type: 'text', text: 'Wrote a.md; b.md was declined.' }] },
      ],
    });
    const { readNote, writeNote } = notesTools(logFile);
    const agent = createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
      tools: [readNote, writeNote],
    });
    const result = await agent.run('Update the notes.').result;
    expect(result.status).toBe('awaiting-approval');
    expect(result.pendingApprovals.map((approval) => approval.toolUseId)).toEqual(['toolu_a', 'toolu_b']);
    expect(result.pendingApprovals[0]!.suggestions.length).toBeGreaterThan(0);
    expect(executions(logFile).map((entry) => entry.tool)).toEqual(['read_note']);

    const snapshotFile = join(dir, 'snapshot.json');
    writeFileSync(snapshotFile, JSON.stringify(agent.snapshot()));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(here, '../fixtures/resume-approvals.child.ts')], {
      cwd: root,
      env: { ...process.env, SNAPSHOT_FILE: snapshotFile, LOG_FILE: logFile, SERVER_URL: server.url },
    });
    const child = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(child).toEqual({ afterFirst: 'awaiting-approval', afterSecond: 'completed', text: 'Wrote a.md; b.md was declined.', pending: 0 });

    expect(executions(logFile)).toEqual([
      { tool: 'read_note', input: { name: 'brief.md' } },
      { tool: 'write_note', input: { name: 'a.md', text: 'edited by the host' } },
    ]);
    expect(server.requests).toHaveLength(2);
    expect(server.errors).toEqual([]);
    const second = server.requests[1]!;
    expect(validateMessagesRequest(second.messages)).toBeUndefined();
    const results = second.messages.at(-1)!.content as Array<{ tool_use_id: string; is_error?: boolean; content: unknown }>;
    expect(results.map((block) => [block.tool_use_id, block.is_error ?? false])).toEqual([
      ['toolu_read', false],
      ['toolu_a', false],
      ['toolu_b', true],
    ]);
    expect(JSON.stringify(results[2]!.content)).toContain('Not this one.');
  });
});
