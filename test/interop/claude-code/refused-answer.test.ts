// A Claude Code session whose last answer the model stopped as a refusal (`stop_reason: "refusal"`
// on any of its lines) while it held a tool call: read back, the answer is marked refused, so a
// resumed agent answers the call as not run instead of running it.
import { describe, expect, it } from 'vitest';
import { readClaudeCodeSession } from '../../../src/interop/claude-code/read-claude-code-session.js';
import { foldEntries } from '../../../src/state/fold-entries.js';
import type { SessionEntry } from '../../../src/state/entries.js';
import { assistant, SESSION_ID, toolUse, user } from './claude-code-lines.js';

async function entriesOf(lines: string[]): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  for await (const entry of readClaudeCodeSession(lines.join('\n'))) entries.push(entry);
  return entries;
}

/** An assistant line whose message reports `stopReason`. */
const stopped = (line: string, stopReason: string) => {
  const parsed = JSON.parse(line) as { message: Record<string, unknown> };
  parsed.message.stop_reason = stopReason;
  return JSON.stringify(parsed);
};

describe('a refused answer in a Claude Code session', () => {
  it('is marked refused whichever of its lines says so; its open call is in a refused batch', async () => {
    for (const refusedLine of [0, 1]) {
      const lines = [assistant('msg_A', { type: 'text', text: 'Sure, let me' }), assistant('msg_A', toolUse('toolu_1', 'Bash', { command: 'rm -rf /tmp/x' }))];
      lines[refusedLine] = stopped(lines[refusedLine]!, 'refusal');
      const entries = await entriesOf([user('Do it.'), ...lines]);
      const answer = entries.find((entry) => entry.kind === 'message' && entry.message.role === 'assistant');
      expect(answer, `refusal on line ${refusedLine}`).toMatchObject({ stopReason: 'refusal' });
      const state = foldEntries(entries, { sessionId: SESSION_ID });
      expect(state.openBatch?.refused).toBe(true);
      expect(state.endedOnRefusal).toBe(true);
    }
  });

  it('an answer with any other stop reason is not marked', async () => {
    const entries = await entriesOf([user('Do it.'), stopped(assistant('msg_A', toolUse('toolu_1', 'Bash', { command: 'ls' })), 'tool_use')]);
    const answer = entries.find((entry) => entry.kind === 'message' && entry.message.role === 'assistant');
    expect(answer).not.toHaveProperty('stopReason');
    expect(foldEntries(entries, { sessionId: SESSION_ID }).openBatch?.refused).toBeUndefined();
  });
});
