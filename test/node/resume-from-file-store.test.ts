import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent, type WarningEvent } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel } from 'agent-harness/testing';
import { tempDirs } from '../temp-dirs.js';

const tempDir = tempDirs();

describe('resuming from the file store after a crash', () => {
  it('skips a torn last line, announces it as a warning event, and goes on', async () => {
    const dir = tempDir('agent-harness-torn-');
    const first = createAgent({ model: scriptedModel(['one']), store: fileSessionStore({ dir }) });
    await first.run('hello').result;
    await first.close();
    // What a crash in the middle of a write leaves behind.
    appendFileSync(join(dir, `${first.sessionId}.jsonl`), '{"$schemaVersion":1,"id":"torn","kind":"mess');

    const warnings: WarningEvent[] = [];
    const model = scriptedModel(['two']);
    const resumed = createAgent({ model, store: fileSessionStore({ dir }), resume: first.sessionId });
    resumed.on('warning', (event) => warnings.push(event));
    await resumed.ready;
    expect(resumed.messages).toEqual(first.messages);
    const result = await resumed.run('again').result;
    expect(result.status).toBe('completed');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ type: 'warning', source: 'session-store', sessionId: first.sessionId });
    expect(warnings[0]!.message).toMatch(/line/);
    await resumed.close();

    // The next load sees the same history plus the new turn, with the torn line still skipped.
    const again = createAgent({ model: scriptedModel([]), store: fileSessionStore({ dir }), resume: first.sessionId });
    await again.ready;
    expect(again.messages).toHaveLength(4);
    await again.close();
  });
});
