import { describe, expect, it } from 'vitest';
import { readClaudeCodeSession } from 'agent-harness';

const line = (fields: Record<string, unknown>) => JSON.stringify({ sessionId: 's', timestamp: '2026-01-01T00:00:00.000Z', ...fields });

describe('review: readClaudeCodeSession torn lines', () => {
  it('a torn line in the middle (crash, then the session was appended to) loses only the torn record', async () => {
    const first = line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'hello' } });
    const torn = line({ type: 'assistant', uuid: 'a1', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'hi' }] } }).slice(0, 60);
    const next = line({ type: 'user', uuid: 'u2', message: { role: 'user', content: 'are you there?' } });
    const warnings: string[] = [];
    const entries = [];
    for await (const entry of readClaudeCodeSession(`${first}\n${torn}${next}\n`, { onWarning: (w) => warnings.push(w.message) })) entries.push(entry);
    expect(warnings).toHaveLength(1);
    expect(entries.map((entry) => entry.id)).toEqual(['u1', 'u2']); // actual: ['u1'] — u2 is glued to the torn prefix and dropped
  });
});
