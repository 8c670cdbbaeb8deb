import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, SnapshotInvalidError, type AgentSnapshot } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const save = defineTool({
  name: 'save',
  description: 'Saves a note.',
  inputSchema: z.object({ text: z.string() }),
  display: ({ input }) => ({ title: 'Save a note', summary: `${input.text.length} characters`, body: input.text, bodyFormat: 'text', file: { path: 'note.md', before: null, after: input.text }, cwd: '/srv' }),
  execute: () => 'saved',
});

async function pendingSnapshot(): Promise<AgentSnapshot> {
  const agent = createAgent({ model: scriptedModel([turn(toolCall('save', { text: 'hello' }))]), tools: [save] });
  const result = await agent.run('save it').result;
  expect(result.status).toBe('awaiting-approval');
  expect(result.pendingApprovals[0]?.display?.title).toBe('Save a note');
  return JSON.parse(JSON.stringify(agent.snapshot())) as AgentSnapshot;
}

const resume = (snapshot: unknown) => createAgent({ model: scriptedModel([]), tools: [save], resume: snapshot as AgentSnapshot });

describe('validateSessionState: the approval card a host will draw', () => {
  it('accepts the display the tool made', async () => {
    expect(resume(await pendingSnapshot()).pendingApprovals[0]?.display?.summary).toBe('5 characters');
  });

  it.each([
    ['display', 'not a card', 'display', 'expected an object'],
    ['title', 42, 'display.title', 'expected a string'],
    ['summary', null, 'display.summary', 'expected a string'],
    ['body', { html: '<script>' }, 'display.body', 'expected a string'],
    ['bodyFormat', 'html', 'display.bodyFormat', 'expected one of "diff", "command", "markdown", "text"'],
    ['file', { path: 'x', before: 3, after: 'y' }, 'display.file.before', 'expected a string'],
    ['file', 'note.md', 'display.file', 'expected an object'],
    ['cwd', ['/'], 'display.cwd', 'expected a string'],
  ])('refuses a tampered %s (%j) naming the path', async (field, value, path, problem) => {
    const snapshot = (await pendingSnapshot()) as unknown as { openBatch: { calls: Array<{ approval: Record<string, unknown> & { display: Record<string, unknown> } }> } };
    const approval = snapshot.openBatch.calls[0]!.approval;
    if (field === 'display') approval.display = value as never;
    else approval.display[field] = value;
    let error: unknown;
    try {
      resume(snapshot);
    } catch (caught) {
      error = caught;
    }
    expect(SnapshotInvalidError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`openBatch.calls[0].approval.${path}`);
    expect((error as Error).message).toContain(problem);
  });

  it('refuses a blockedPath that is not a string', async () => {
    const snapshot = (await pendingSnapshot()) as unknown as { openBatch: { calls: Array<{ approval: Record<string, unknown> }> } };
    snapshot.openBatch.calls[0]!.approval.blockedPath = { toString: 'x' };
    expect(() => resume(snapshot)).toThrow(/approval\.blockedPath.*expected a string/);
  });
});
