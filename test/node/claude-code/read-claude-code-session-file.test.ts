import { appendFile, cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readClaudeCodeSessionFile } from '../../../src/node/claude-code/read-claude-code-session-file.js';
import { memoryPlanStore } from '../../../src/plan/memory-plan-store.js';
import { recoverPlan } from '../../../src/plan/recover-plan.js';
import type { MessageEntry, SessionEntry } from '../../../src/state/entries.js';
import { recoverTodos } from '../../../src/todos/recover-todos.js';

import { CLAUDE_CODE_FIXTURES, MISSING_FIXTURES } from './claude-code-fixtures.js';

let root: string;
let sessions: string[];

async function jsonlFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await jsonlFiles(path)));
    else if (entry.name.endsWith('.jsonl')) found.push(path);
  }
  return found.sort();
}

/** An independent look at a file: one JSON.parse per line, nothing shared with the reader. */
async function rawLines(path: string): Promise<Array<Record<string, any>>> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

async function readAll(path: string, includeSubagents = false) {
  const warnings: string[] = [];
  const reader = readClaudeCodeSessionFile(path, { includeSubagents, onWarning: (warning) => warnings.push(warning.message) });
  const entries: SessionEntry[] = [];
  for await (const entry of reader) entries.push(entry);
  return { entries, stats: reader.stats, warnings };
}

beforeAll(async () => {
  if (!CLAUDE_CODE_FIXTURES) return;
  root = await mkdtemp(join(tmpdir(), 'agent-harness-claude-code-'));
  await cp(CLAUDE_CODE_FIXTURES, root, { recursive: true });
  // Main sessions only: subagent files live under <session>/subagents/.
  sessions = (await jsonlFiles(root)).filter((path) => !path.includes('/subagents/'));
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!CLAUDE_CODE_FIXTURES)(`readClaudeCodeSessionFile on real Claude Code sessions${CLAUDE_CODE_FIXTURES ? '' : ` (${MISSING_FIXTURES})`}`, () => {
  it('finds the fixtures', () => {
    expect(sessions.map((path) => relative(root, path))).toEqual([
      'claude-code-viewer/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl',
      'claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
      'spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
      'spotter/short.jsonl',
      'spotter/tool_heavy.jsonl',
    ]);
  });

  it('reads every file (and every subagent file) without a malformed line or a warning', async () => {
    for (const path of await jsonlFiles(root)) {
      const { entries, stats, warnings } = await readAll(path);
      const lines = await rawLines(path);
      expect(stats.malformedLines, path).toBe(0);
      // Real sessions hold nothing to warn about: no dropped block, no repeated message.
      expect(warnings, path).toEqual([]);
      expect(stats.droppedBlocks + stats.duplicateLines, path).toBe(0);
      expect(stats.lines, path).toBe(lines.length);
      expect(entries.length, path).toBe(stats.entries);
      expect(entries.length, path).toBeGreaterThan(0);
    }
  });

  it('yields one entry per user line and one merged message per provider message id', async () => {
    for (const path of sessions) {
      const lines = await rawLines(path);
      const { entries, stats } = await readAll(path);
      const messages = entries.filter((entry): entry is MessageEntry => entry.kind === 'message');
      const userLines = lines.filter((line) => line.type === 'user').length;
      const threadOf = (line: Record<string, any>) => line.agentId ?? (line.isSidechain ? 'side' : 'main');
      const assistantIds = new Set(lines.filter((line) => line.type === 'assistant').map((line) => `${threadOf(line)}:${line.message.id}`));
      const assistantLines = lines.filter((line) => line.type === 'assistant').length;
      expect(messages.filter((entry) => entry.message.role === 'user').length, path).toBe(userLines);
      expect(messages.filter((entry) => entry.message.role === 'assistant').length, path).toBe(assistantIds.size);
      expect(stats.mergedLines, path).toBe(assistantLines - assistantIds.size);
      expect(entries.filter((entry) => entry.kind === 'compact-boundary').length, path).toBe(lines.filter((line) => line.subtype === 'compact_boundary').length);
      const slugs = new Set(lines.map((line) => line.slug).filter(Boolean));
      expect(entries.filter((entry) => entry.kind === 'session-meta').map((entry) => (entry as { slug?: string }).slug), path).toEqual([...slugs]);
      expect(stats.skippedLines + userLines + assistantLines + lines.filter((line) => line.subtype === 'compact_boundary').length, path).toBe(lines.length);
    }
  });

  it('keeps usage once per message: the last line of each message id', async () => {
    for (const path of sessions) {
      const lastUsage = new Map<string, Record<string, number>>();
      for (const line of await rawLines(path)) if (line.type === 'assistant') lastUsage.set(line.message.id, line.message.usage);
      const { entries } = await readAll(path);
      for (const entry of entries) {
        if (entry.kind !== 'message' || entry.message.role !== 'assistant') continue;
        const usage = lastUsage.get(entry.messageId as string);
        expect(entry.usage, path).toEqual({
          inputTokens: usage?.input_tokens ?? 0,
          outputTokens: usage?.output_tokens ?? 0,
          cacheReadInputTokens: usage?.cache_read_input_tokens ?? 0,
          cacheCreationInputTokens: usage?.cache_creation_input_tokens ?? 0,
        });
      }
    }
  });

  it('produces a history the Messages API accepts: every tool result follows the message with its call', async () => {
    for (const path of sessions) {
      const { entries } = await readAll(path, true);
      const lastCalls = new Map<string, Set<string>>();
      for (const entry of entries) {
        if (entry.kind !== 'message' || typeof entry.message.content === 'string') continue;
        const thread = entry.agentId ?? '';
        if (entry.message.role === 'assistant') {
          lastCalls.set(thread, new Set(entry.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id as string] : []))));
          continue;
        }
        for (const block of entry.message.content) {
          if (block.type === 'tool_result') expect(lastCalls.get(thread)?.has(block.tool_use_id as string), `${path}: ${String(block.tool_use_id)}`).toBe(true);
        }
      }
      // Parents are the previous entry of the same thread.
      const lastId = new Map<string, string | null>();
      for (const entry of entries) {
        const thread = entry.agentId ?? '';
        expect(entry.parentId, path).toBe(lastId.get(thread) ?? null);
        lastId.set(thread, entry.id);
      }
    }
  });

  it('keeps subagent sidechains apart: 2.x subagent files and 1.x inline sidechains', async () => {
    const withSubagents = sessions.find((path) => path.includes('ae4a77f8'))!;
    const main = await readAll(withSubagents);
    expect(new Set(main.entries.map((entry) => entry.agentId))).toEqual(new Set([undefined]));
    const all = await readAll(withSubagents, true);
    expect(new Set(all.entries.map((entry) => entry.agentId))).toEqual(new Set([undefined, 'aac57f5', 'acompact-946d2b']));
    expect(all.entries.slice(0, main.entries.length)).toEqual(main.entries);

    const inline = sessions.find((path) => path.includes('5c0375b4'))!;
    const lines = await rawLines(inline);
    const roots = lines.filter((line) => line.isSidechain && line.parentUuid === null).map((line) => line.uuid);
    const { entries } = await readAll(inline);
    expect(roots).toHaveLength(2);
    expect(new Set(entries.map((entry) => entry.agentId))).toEqual(new Set([undefined, ...roots]));
    expect(entries.filter((entry) => entry.agentId !== undefined).length).toBe(
      lines.filter((line) => line.isSidechain && line.type === 'user').length + new Set(lines.filter((line) => line.isSidechain && line.type === 'assistant').map((line) => line.message.id)).size,
    );
  });

  it('survives the compaction boundary and keeps the compact summary', async () => {
    const path = sessions.find((file) => file.includes('ae4a77f8'))!;
    const { entries } = await readAll(path);
    const boundary = entries.findIndex((entry) => entry.kind === 'compact-boundary');
    expect(boundary).toBeGreaterThan(0);
    const summary = entries.slice(boundary).find((entry) => entry.kind === 'message' && entry.isCompactSummary);
    expect(summary).toBeDefined();
    expect(entries.slice(boundary + 1).some((entry) => entry.kind === 'message' && entry.message.role === 'assistant')).toBe(true);
  });

  it('recovers the todo list of a session with TodoWrite calls: the newTodos of its last TodoWrite result line', async () => {
    const withTodos = sessions.filter((path) => path.includes('claude-code-viewer'));
    expect(withTodos).toHaveLength(2);
    for (const path of withTodos) {
      const lines = await rawLines(path);
      const last = lines.filter((line) => Array.isArray(line.toolUseResult?.newTodos)).at(-1);
      expect(last, path).toBeDefined();
      expect(await recoverTodos({ entries: readClaudeCodeSessionFile(path) }), path).toEqual(last?.toolUseResult.newTodos);
    }
  });

  it('finds no todos and no plan where there are none', async () => {
    for (const path of sessions.filter((file) => file.includes('spotter'))) {
      const todoLines = (await rawLines(path)).filter((line) => Array.isArray(line.toolUseResult?.newTodos));
      if (todoLines.length === 0) expect(await recoverTodos({ entries: readClaudeCodeSessionFile(path) }), path).toBeUndefined();
    }
    for (const path of sessions) {
      // These sessions have a plan slug but never an approved plan; an empty store does not change that.
      expect(await recoverPlan({ entries: readClaudeCodeSessionFile(path, { includeSubagents: true }) }), path).toBeUndefined();
      expect(await recoverPlan({ store: memoryPlanStore(), entries: readClaudeCodeSessionFile(path) }), path).toBeUndefined();
    }
  });

  it("finds the plan in the store under the session's slug, as Claude Code names plan files", async () => {
    const path = sessions.find((file) => file.includes('ae4a77f8'))!;
    const store = memoryPlanStore({ initial: { 'lexical-painting-whisper.md': '# Plan from ~/.claude/plans' } });
    expect(await recoverPlan({ store, entries: readClaudeCodeSessionFile(path) })).toEqual({
      text: '# Plan from ~/.claude/plans',
      source: 'store',
      name: 'lexical-painting-whisper.md',
    });
  });

  it('links each subagent to the Task call that started it: 2.x by agentId, 1.x inline sidechains by prompt', async () => {
    const withSubagents = sessions.find((path) => path.includes('ae4a77f8'))!;
    const lines = await rawLines(withSubagents);
    // Independently: the Task calls, and the agentId their result lines name.
    const calls = new Map(
      lines.flatMap((line) => (line.type === 'assistant' ? line.message.content : [])).filter((block: any) => block.type === 'tool_use' && block.name === 'Task').map((block: any) => [block.id, block.input]),
    );
    const expected = lines
      .filter((line) => typeof line.toolUseResult?.agentId === 'string')
      .map((line) => {
        const toolUseId = line.message.content[0].tool_use_id;
        const input = calls.get(toolUseId);
        return { agentId: line.toolUseResult.agentId, toolUseId, toolName: 'Task', ...(input.subagent_type ? { subagentType: input.subagent_type } : {}), ...(input.description ? { description: input.description } : {}) };
      });
    expect(expected.length).toBeGreaterThan(0);
    const reader = readClaudeCodeSessionFile(withSubagents, { includeSubagents: true });
    const agents = new Set<string | undefined>();
    for await (const entry of reader) agents.add(entry.agentId);
    expect([...reader.subagents.values()]).toEqual(expected);
    // The compaction agent has a file but no Task call.
    expect(agents.has('acompact-946d2b') && !reader.subagents.has('acompact-946d2b')).toBe(true);

    const inline = sessions.find((path) => path.includes('5c0375b4'))!;
    const inlineLines = await rawLines(inline);
    const prompts = new Map(
      inlineLines.flatMap((line) => (line.type === 'assistant' ? line.message.content : [])).filter((block: any) => block.name === 'Task' && block.input.prompt).map((block: any) => [block.input.prompt, block.id]),
    );
    const roots = inlineLines.filter((line) => line.isSidechain && line.parentUuid === null);
    const inlineReader = readClaudeCodeSessionFile(inline);
    for await (const _entry of inlineReader) {
      // read through
    }
    expect(roots).toHaveLength(2);
    for (const root of roots) expect(inlineReader.subagents.get(root.uuid)?.toolUseId).toBe(prompts.get(root.message.content));
  });

  it("turns every TodoWrite result into a todo-update entry right after it, equal to the newTodos Claude Code recorded", async () => {
    for (const path of sessions.filter((file) => file.includes('claude-code-viewer'))) {
      const recorded = (await rawLines(path)).filter((line) => Array.isArray(line.toolUseResult?.newTodos)).map((line) => line.toolUseResult.newTodos);
      const { entries } = await readAll(path);
      const updates = entries.flatMap((entry, index) => (entry.kind === 'todo-update' ? [{ entry, before: entries[index - 1] }] : []));
      // Consecutive identical lists are one update.
      const distinct = recorded.filter((list, index) => index === 0 || JSON.stringify(list) !== JSON.stringify(recorded[index - 1]));
      expect(updates.map(({ entry }) => (entry as { todos: unknown }).todos), path).toEqual(distinct);
      for (const { before } of updates) expect(before, path).toMatchObject({ kind: 'message', message: { role: 'user' } });
    }
  });

  it("records the permission mode of the prompts as mode-change entries", async () => {
    for (const path of sessions) {
      const modes = (await rawLines(path)).filter((line) => line.type === 'user' && typeof line.permissionMode === 'string').map((line) => line.permissionMode);
      const changes = modes.filter((mode, index) => mode !== (index === 0 ? 'default' : modes[index - 1]));
      const { entries } = await readAll(path);
      expect(entries.filter((entry) => entry.kind === 'mode-change').map((entry) => (entry as { to: string }).to), path).toEqual(changes);
    }
  });

  it('skips a torn last line and bad lines, reporting each, and still reads the rest', async () => {
    const path = sessions.find((file) => file.endsWith('short.jsonl'))!;
    const before = await readAll(path);
    await appendFile(path, 'not json at all\n{"type":"assistant","message":{"id":"msg_torn","content":[{"type":"te');
    const warnings: string[] = [];
    const reader = readClaudeCodeSessionFile(path, { onWarning: (warning) => warnings.push(warning.message) });
    const entries: SessionEntry[] = [];
    for await (const entry of reader) entries.push(entry);
    expect(entries).toEqual(before.entries);
    expect(reader.stats.malformedLines).toBe(2);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(path);
  });

  it('reports a missing file when iterated', async () => {
    const reader = readClaudeCodeSessionFile(join(root, 'missing.jsonl'));
    await expect(async () => {
      for await (const _entry of reader) {
        // nothing
      }
    }).rejects.toThrow(/ENOENT/);
  });
});
