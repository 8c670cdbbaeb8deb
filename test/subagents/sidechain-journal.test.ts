// A subagent's entries go into its parent's journal marked with its agentId: those it records, and
// those it holds (the answer completing its batch), whichever way the held ones are released.
import { describe, expect, it } from 'vitest';
import { memorySessionStore } from 'agent-harness';
import { Journal, type EntryDraft } from '../../src/session/journal.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { SidechainJournal } from '../../src/subagents/sidechain-journal.js';

const block = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'done' });
const answered = (result: ReturnType<typeof block>): EntryDraft => ({ kind: 'tool-result', toolUseId: result.tool_use_id, toolName: 'note', result });

describe('SidechainJournal', () => {
  it("marks the entries it records and those it holds with the subagent's id, a grandchild's keeping theirs", async () => {
    const store = memorySessionStore();
    const parent = new Journal(store, 'sidechain-a', undefined);
    const child = new SidechainJournal(parent, 'agent-child');
    const grandchild = new SidechainJournal(child, 'agent-grandchild');
    child.record({ kind: 'reminder', text: 'recorded' });
    grandchild.record({ kind: 'reminder', text: 'deeper' });
    const heard: string[] = [];
    child.hold([answered(block('c1'))], () => heard.push('c1'), 'message');
    // Released by the parent's own record, which does not carry the result: stored as it is, marked.
    parent.record({ kind: 'reminder', text: 'parent' });
    await parent.flush();
    const stored = await loadEntries(store, 'sidechain-a');
    expect(stored.map((entry) => [entry.kind, entry.agentId])).toEqual([
      ['reminder', 'agent-child'],
      ['reminder', 'agent-grandchild'],
      ['tool-result', 'agent-child'],
      ['reminder', undefined],
    ]);
    expect(heard).toEqual(['c1']);
  });

  it("the subagent's message carrying its held result stores it once, marked", async () => {
    const store = memorySessionStore();
    const parent = new Journal(store, 'sidechain-b', undefined);
    const child = new SidechainJournal(parent, 'agent-child');
    const result = block('c2');
    child.hold([answered(result)], () => undefined, 'message');
    child.record({ kind: 'message', message: { role: 'user', content: [result] } });
    await parent.flush();
    const stored = await loadEntries(store, 'sidechain-b');
    expect(stored.map((entry) => [entry.kind, entry.agentId])).toEqual([['message', 'agent-child']]);
  });
});
