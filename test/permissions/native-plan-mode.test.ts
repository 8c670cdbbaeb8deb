import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicModel, createAgent, type AgentEvent, type CanUseTool } from 'agent-harness';
import { startMessagesServer, type MessagesServer, type MessagesServerTurn } from 'agent-harness/testing/messages-server';
import { notesTools } from '../fixtures/notes-tools.js';
import { tempDirs } from '../temp-dirs.js';

const tempDir = tempDirs();

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const call = (id: string, name: string, input: unknown): MessagesServerTurn => ({
  content: [{ type: 'tool_use', id, name, input }],
  stopReason: 'tool_use',
});

function lastUserBlocks(messages: Array<{ role: string; content: unknown }>) {
  return messages.at(-1)!.content as Array<{ type: string; tool_use_id?: string; is_error?: boolean; content?: unknown; text?: string }>;
}

describe('native plan mode through @anthropic-ai/sdk', () => {
  it('enter, explore read-only, write denied, plan rejected with feedback, revised plan approved into acceptEdits, same run executes', async () => {
    const logFile = join(tempDir('agent-harness-plan-'), 'log.jsonl');
    writeFileSync(logFile, '');
    server = await startMessagesServer({
      responses: [
        call('t1', 'EnterPlanMode', {}),
        call('t2', 'read_note', { name: 'brief.md' }),
        call('t3', 'write_note', { name: 'draft.md', text: 'too early' }),
        call('t4', 'ExitPlanMode', { plan: '1. Outline\n2. Draft' }),
        call('t5', 'ExitPlanMode', { plan: '1. Outline\n2. Draft\n\nRisks: tone' }),
        call('t6', 'write_note', { name: 'draft.md', text: 'the draft' }),
        { content: [{ type: 'text', text: 'Draft written.' }] },
      ],
    });
    const asked: string[] = [];
    const canUseTool: CanUseTool = (toolName, input, context) => {
      asked.push(`${toolName}:${context.reason.type}`);
      if (toolName === 'EnterPlanMode') return { behavior: 'allow' };
      if (toolName === 'ExitPlanMode') {
        const plan = (input as { plan: string }).plan;
        if (!plan.includes('Risks')) return { behavior: 'deny', message: 'Add the risks, please.' };
        return { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] };
      }
      return { behavior: 'deny', message: 'unexpected question' };
    };
    const { readNote, writeNote } = notesTools(logFile);
    const agent = createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
      system: 'You write notes.',
      tools: [readNote, writeNote],
      enterPlanMode: true,
      canUseTool,
      // The notes' workspace: acceptEdits approves path edits only inside a known one.
      cwd: '/notes',
    });
    const events: AgentEvent[] = [];
    for await (const event of agent.run('Write the draft, planning first.')) events.push(event);
    const result = events.find((event) => event.type === 'run-end');
    expect(result && result.type === 'run-end' && result.result.status).toBe('completed');

    expect(asked).toEqual(['EnterPlanMode:tool-check', 'ExitPlanMode:plan-approval', 'ExitPlanMode:plan-approval']);
    const modeChanges = events.filter((event) => event.type === 'mode-change').map((event) => event.type === 'mode-change' && [event.from, event.to, event.reason]);
    expect(modeChanges).toEqual([
      ['default', 'plan', 'enter-plan-mode'],
      ['plan', 'acceptEdits', 'plan-approved'],
    ]);
    expect(events.filter((event) => event.type === 'plan-approval-request').map((event) => event.type === 'plan-approval-request' && event.plan)).toEqual([
      '1. Outline\n2. Draft',
      '1. Outline\n2. Draft\n\nRisks: tone',
    ]);
    expect(agent.plan?.text).toBe('1. Outline\n2. Draft\n\nRisks: tone');
    expect(agent.plan?.name).toMatch(/^[a-z]+-[a-z]+-[a-z]+\.md$/);
    expect(agent.permissionMode).toBe('acceptEdits');

    // Exactly one write ran, after approval.
    const log = readFileSync(logFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(log).toEqual([
      { tool: 'read_note', input: { name: 'brief.md' } },
      { tool: 'write_note', input: { name: 'draft.md', text: 'the draft' } },
    ]);

    // What the model saw, request by request.
    const requests = server.requests;
    expect(requests).toHaveLength(7);
    const denied = lastUserBlocks(requests[3]!.messages).find((block) => block.tool_use_id === 't3')!;
    expect(denied.is_error).toBe(true);
    expect(String(denied.content)).toMatch(/plan/i);
    const rejected = lastUserBlocks(requests[4]!.messages).find((block) => block.tool_use_id === 't4')!;
    expect(rejected.is_error).toBe(true);
    expect(String(rejected.content)).toContain('Add the risks, please.');
    const approvedBlocks = lastUserBlocks(requests[5]!.messages);
    const approved = approvedBlocks.find((block) => block.tool_use_id === 't5')!;
    expect(approved.is_error).toBeFalsy();
    expect(String(approved.content)).toMatch(/approved/);
    expect(String(approved.content)).toContain('Risks: tone');
    // The mode change reached the model as a reminder in the history, not in the system prompt.
    expect(approvedBlocks.some((block) => block.type === 'text' && /acceptEdits|accept/i.test(block.text ?? ''))).toBe(true);
    for (const request of requests) {
      expect(JSON.stringify(request.system)).toBe(JSON.stringify(requests[0]!.system));
      expect(JSON.stringify(request.tools)).toBe(JSON.stringify(requests[0]!.tools));
    }
    expect(server.errors).toEqual([]);
  });
});
