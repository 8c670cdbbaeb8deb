import { describe, expect, it } from 'vitest';
import { readClaudeCodeSession } from '../../../src/interop/claude-code/read-claude-code-session.js';

// The normalizer behind readClaudeCodeSession loads when the reader is first iterated (issue 16:
// a browser host does not download it up front). The reader hands out its counts and subagents
// before that: they must be the objects the reading fills, not a snapshot of nothing.
const line = (fields: object) => JSON.stringify({ sessionId: 's', timestamp: '2026-02-10T10:00:00.000Z', isSidechain: false, ...fields });
const session = [
  line({ uuid: 'u1', type: 'user', message: { role: 'user', content: 'Split the work.' } }),
  line({ uuid: 'u2', type: 'assistant', message: { id: 'm1', type: 'message', role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'tool_use', id: 'call_1', name: 'Task', input: { subagent_type: 'general-purpose', description: 'Look', prompt: 'Look around.' } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } } }),
  line({ uuid: 'u3', type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'Done.' }] }, toolUseResult: { agentId: 'agent_a', status: 'completed' } }),
  'not json',
].join('\n');

describe('a Claude Code session reader before and while it reads', () => {
  it('shows zero counts and no subagents before it is iterated, and the same objects filled once it has read', async () => {
    const reader = readClaudeCodeSession(session);
    const { stats, subagents } = reader;
    expect(stats).toEqual({ lines: 0, malformedLines: 0, skippedLines: 0, skippedByKind: {}, entries: 0, messages: 0, mergedLines: 0, duplicateLines: 0, droppedBlocks: 0 });
    expect(subagents.size).toBe(0);
    let seenWhileReading = -1;
    for await (const entry of reader) {
      if (entry.kind === 'message' && seenWhileReading < 0) seenWhileReading = stats.lines;
    }
    expect(seenWhileReading).toBeGreaterThan(0);
    expect(reader.stats).toBe(stats);
    expect(reader.subagents).toBe(subagents);
    expect(stats).toMatchObject({ lines: 4, malformedLines: 1, messages: 3 });
    expect([...subagents.keys()]).toEqual(['agent_a']);
    expect(subagents.get('agent_a')).toMatchObject({ toolUseId: 'call_1', subagentType: 'general-purpose' });
  });

  it('still refuses a second iteration, synchronously, as before', () => {
    const reader = readClaudeCodeSession(session);
    reader[Symbol.asyncIterator]();
    expect(() => reader[Symbol.asyncIterator]()).toThrow(/can be iterated only once/);
  });
});
