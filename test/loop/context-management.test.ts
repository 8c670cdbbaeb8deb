import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CLEARED_TOOL_RESULT_PREFIX,
  createAgent,
  defineTool,
  foldEntries,
  memorySessionStore,
  SESSION_STATE_HEADING,
  SUMMARY_HEADING,
  type AgentEvent,
  type ContentBlock,
  type SessionEntry,
  type TextBlock,
  type ToolResultBlock,
} from '../../src/index.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { asksForSummary, contextModel, lastUserText } from './context-model.js';

const SUMMARY = '<summary>\n## Goal\nRead every file.\n## Next step\nRead the next file.\n</summary>';

/** A tool whose output is `size` characters. */
const readTool = (size: number) =>
  defineTool({
    name: 'Read',
    description: 'Reads a file.',
    inputSchema: z.object({ path: z.string() }),
    readOnly: true,
    execute: ({ input }) => `contents of ${input.path}\n${'lorem ipsum dolor '.repeat(Math.ceil(size / 18)).slice(0, size)}`,
  });

/** Reads files for `calls` turns, then answers; summarizes when asked. */
const reader = (calls: number) => {
  let reads = 0;
  return (request: Parameters<Parameters<typeof contextModel>[0]>[0], index: number): ContentBlock[] => {
    if (asksForSummary(request)) return [{ type: 'text', text: SUMMARY }];
    if (reads >= calls) {
      reads = 0;
      return [{ type: 'text', text: `Done after ${index} calls.` }];
    }
    reads++;
    return [{ type: 'tool_use', id: `toolu_${index}`, name: 'Read', input: { path: `file-${index}.txt` } }];
  };
};

const textOf = (content: unknown) => (typeof content === 'string' ? content : (content as TextBlock[]).map((block) => block.text ?? '').join('\n'));

describe('context accounting', () => {
  it('reports contextUsage and one context-usage event per turn, anchored on the reported usage', async () => {
    const model = contextModel(reader(2));
    const agent = createAgent({ model, tools: [readTool(2_000)] });
    const usages: Array<{ turn: number; tokens: number }> = [];
    agent.on('context-usage', (event) => usages.push({ turn: event.turn, tokens: event.usage.tokens }));
    const before = agent.contextUsage;
    expect(before.window).toBe(200_000);
    expect(before.source).toBe('estimate');
    const result = await agent.run('Read the files.').result;
    expect(result.status).toBe('completed');
    expect(usages.map((usage) => usage.turn)).toEqual([1, 2, 3]);
    // The figure after a turn is the prompt the API reported plus the answer.
    expect(usages[2]!.tokens).toBe(model.calls[2]!.tokens + (result.usage.outputTokens - (usages[0]!.tokens - model.calls[0]!.tokens) - (usages[1]!.tokens - model.calls[1]!.tokens)));
    const after = agent.contextUsage;
    expect(after.tokens).toBe(usages[2]!.tokens);
    expect(after.fraction).toBeCloseTo(after.tokens / 200_000);
    expect(['usage', 'calibrated']).toContain(after.source);
  });

  it('takes the window from the table the host extends, or from `window`', () => {
    const model = contextModel(() => []);
    expect(createAgent({ model, context: { windows: { 'claude-sonnet-4-6': 1_000_000 } } }).contextUsage.window).toBe(1_000_000);
    expect(createAgent({ model, context: { window: 50_000 } }).contextUsage.window).toBe(50_000);
    expect(() => createAgent({ model, context: { window: 0 } })).toThrow(/`context.window`/);
    expect(() => createAgent({ model, context: { compaction: { treshold: 0.5 } as never } })).toThrow(/threshold/);
  });

  it('counts each request with the model before sending it when the model counts', async () => {
    const inner = contextModel(reader(1));
    let counted = 0;
    const model = { ...inner, capabilities: { countTokens: true }, countTokens: async () => ({ inputTokens: 4242 + counted++ }) };
    const agent = createAgent({ model, tools: [readTool(100)] });
    await agent.run('Read.').result;
    expect(counted).toBe(2);
  });
});

describe('spill', () => {
  it('keeps a long result whole in the session; the model pages through it with ReadToolOutput, also after resume', async () => {
    const store = memorySessionStore();
    let handle = '';
    const model = contextModel((request, index) => {
      if (index === 0) return [{ type: 'tool_use', id: 'toolu_big', name: 'Read', input: { path: 'big.txt' } }];
      if (index === 1) {
        const preview = textOf((request.messages.at(-1)!.content as ToolResultBlock[])[0]!.content);
        handle = /kept as "([^"]+)"/.exec(preview)![1]!;
        expect(preview.length).toBeLessThan(5_000);
        return [{ type: 'tool_use', id: 'toolu_page', name: 'ReadToolOutput', input: { handle, offset: 50_000, length: 100 } }];
      }
      return [{ type: 'text', text: 'Read it.' }];
    });
    const agent = createAgent({ model, tools: [readTool(120_000)], store, context: { spill: true } });
    await agent.run('Read big.txt').result;
    await agent.close();
    const page = textOf((model.calls[2]!.messages.at(-1)!.content as ToolResultBlock[])[0]!.content);
    expect(page).toContain(`[${handle}: characters 50000–50100 of`);
    expect(agent.snapshot().spilled?.[handle]?.text.length).toBeGreaterThan(120_000);
    // Resumed from the store, the output is still there.
    const resumedModel = contextModel(() => [{ type: 'text', text: 'ok' }]);
    const resumed = createAgent({ model: resumedModel, tools: [readTool(10)], store, resume: agent.sessionId, context: { spill: true } });
    await resumed.ready;
    expect(resumed.snapshot().spilled?.[handle]?.toolName).toBe('Read');
  });
});

describe('clearing stale tool results', () => {
  it('past the threshold, old results become stubs that say how to get them again; the store folds to the same history', async () => {
    const store = memorySessionStore();
    const model = contextModel(reader(12));
    const cleared: string[] = [];
    const agent = createAgent({ model, tools: [readTool(8_000)], store, maxTurns: 50, context: { window: 40_000, clearing: { triggerFraction: 0.4, clearAtLeastChars: 10_000 }, compaction: false } });
    agent.on('tool-results-cleared', (event) => cleared.push(...event.cleared.map((call) => call.toolUseId)));
    const result = await agent.run('Read the files.').result;
    expect(result.status).toBe('completed');
    expect(cleared.length).toBeGreaterThan(0);
    const stub = textOf(agent.messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as ToolResultBlock[]) : [])).find((block) => block.tool_use_id === cleared[0])!.content);
    expect(stub.startsWith(CLEARED_TOOL_RESULT_PREFIX)).toBe(true);
    expect(stub).toContain('Read({"path":');
    // The last three turns are never cleared.
    for (const call of model.calls) expect(call.problem).toBeUndefined();
    for (const call of model.calls) expect(call.tokens).toBeLessThanOrEqual(40_000);
    const entries = await loadEntries(store, agent.sessionId);
    expect(foldEntries(entries, { sessionId: agent.sessionId }).messages).toEqual(agent.messages);
  });
});

describe('compaction', () => {
  it('compacts automatically near the window, restating the plan mode, todos and rules; events and hooks fire', async () => {
    const model = contextModel(reader(40));
    const events: AgentEvent[] = [];
    const post: string[] = [];
    const agent = createAgent({
      model,
      tools: [readTool(6_000)],
      maxTurns: 60,
      permissionMode: 'plan',
      rules: {},
      context: { window: 30_000, clearing: false, compaction: { outputReserve: 2_000, threshold: 0.8, keepTokens: 4_000 } },
      hooks: { PostCompact: [{ hook: (input) => void post.push(`${input.trigger}:${input.tokensBefore}>${input.tokensAfter}`) }] },
    });
    agent.setTodos([{ content: 'Read the files', status: 'in_progress', activeForm: 'Reading the files' }]);
    agent.addRules({ allow: ['Read'] });
    for (const type of ['compaction-start', 'compaction-end'] as const) agent.on(type, (event) => events.push(event));
    const result = await agent.run('Read the files.').result;
    expect(result.status).toBe('completed');
    const ends = events.filter((event) => event.type === 'compaction-end');
    expect(ends.length).toBeGreaterThan(0);
    for (const end of ends) {
      if (end.type !== 'compaction-end') continue;
      expect(end.trigger).toBe('auto');
      expect(end.tokensAfter).toBeLessThan(end.tokensBefore);
      expect(end.error).toBeUndefined();
    }
    expect(post).toHaveLength(ends.length);
    for (const call of model.calls) {
      expect(call.problem).toBeUndefined();
      expect(call.tokens).toBeLessThanOrEqual(30_000);
    }
    const opening = textOf(agent.messages[0]!.content);
    expect(opening.startsWith(SUMMARY_HEADING)).toBe(true);
    expect(opening).toContain(`${SESSION_STATE_HEADING}\n\nPermission mode: plan.`);
    expect(opening).toContain('"content": "Read the files"');
    expect(opening).toContain('allow: Read');
    expect(agent.permissionMode).toBe('plan');
  });

  it('a PreCompact hook adds instructions, or vetoes an automatic compaction (not a manual one)', async () => {
    const model = contextModel(reader(3));
    let veto = true;
    const agent = createAgent({
      model,
      tools: [readTool(500)],
      context: { window: 2_000, clearing: false, compaction: { outputReserve: 0, threshold: 0.1, keepTokens: 0 } },
      hooks: { PreCompact: [{ hook: (input) => (input.trigger === 'auto' && veto ? { block: true } : { instructions: 'Keep every file name.' }) }] },
    });
    const blocked = await agent.run('Read.').result;
    expect(blocked.status).toBe('completed');
    expect(model.calls.some((call) => asksForSummary(call.request))).toBe(false);
    veto = false;
    const manual = await agent.compact({ instructions: 'Mention the user.' });
    expect(manual.compacted).toBe(true);
    const summaryRequest = model.calls.at(-1)!;
    expect(lastUserText(summaryRequest.request)).toContain('Mention the user.');
    expect(lastUserText(summaryRequest.request)).toContain('Keep every file name.');
  });

  it('a "prompt is too long" refusal compacts and retries once; the run goes on', async () => {
    // The model refuses anything over 9,000 tokens; nothing compacts before it does.
    const model = contextModel(reader(6), { window: 9_000 });
    const events: string[] = [];
    const agent = createAgent({ model, tools: [readTool(6_000)], context: { window: 1_000_000, clearing: false } });
    agent.on('compaction-end', (event) => events.push(event.trigger));
    const result = await agent.run('Read the files.').result;
    expect(result.error?.message).toBeUndefined();
    expect(result.status).toBe('completed');
    expect(events).toContain('reactive');
    const accepted = model.calls.filter((call) => call.tokens <= 9_000);
    for (const call of accepted) expect(call.problem).toBeUndefined();
  });

  it('manual compaction with a store: the boundary holds the summary, resume starts from it, the full history stays, fork works before and after', async () => {
    const store = memorySessionStore();
    const model = contextModel(reader(3));
    const agent = createAgent({ model, tools: [readTool(5_000)], store, context: { compaction: { keepTokens: 1_000 } } });
    await agent.run('Read the files.').result;
    const before = [...agent.messages];
    const early = await agent.fork({ upTo: 3 });
    const result = await agent.compact();
    expect(result).toMatchObject({ compacted: true, trigger: 'manual', summarizedMessages: expect.any(Number) });
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    expect(agent.messages.length).toBeLessThan(before.length);
    const entries = (await loadEntries(store, agent.sessionId)) as SessionEntry[];
    const boundary = entries.filter((entry) => entry.kind === 'checkpoint' && entry.reason === 'compaction');
    expect(boundary).toHaveLength(1);
    expect(boundary[0]!.kind === 'checkpoint' && boundary[0]!.compaction?.summary).toContain('Read every file.');
    // The full history is still in the store, before the boundary.
    const messagesInStore = entries.filter((entry) => entry.kind === 'message');
    expect(messagesInStore.length).toBeGreaterThanOrEqual(before.length);
    const late = await agent.fork();
    await agent.close();
    const resumed = createAgent({ model: contextModel(() => [{ type: 'text', text: 'Resumed.' }]), tools: [readTool(10)], store, resume: agent.sessionId });
    await resumed.ready;
    expect(resumed.messages).toEqual(agent.messages);
    expect(late.messages).toEqual(agent.messages);
    expect(early.messages).toEqual(before.slice(0, 3));
    expect((await early.run('Go on.').result).status).toBe('completed');
    expect((await late.run('Go on.').result).status).toBe('completed');
  });

  it('a plan approved with clearContext survives a later compaction, restated verbatim', async () => {
    const PLAN = '# Plan\n1. Read the notes\n2. Write the draft';
    const model = contextModel((request, index) => {
      if (asksForSummary(request)) return [{ type: 'text', text: SUMMARY }];
      if (index === 0) return [{ type: 'tool_use', id: 'toolu_plan', name: 'ExitPlanMode', input: { plan: PLAN } }];
      if (index < 4) return [{ type: 'tool_use', id: `toolu_${index}`, name: 'Read', input: { path: `f${index}` } }];
      return [{ type: 'text', text: 'Done.' }];
    });
    const agent = createAgent({ model, tools: [readTool(500)], permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow', clearContext: true }) });
    await agent.run('Plan it.').result;
    expect(agent.plan?.text).toBe(PLAN);
    await agent.compact();
    const opening = textOf(agent.messages[0]!.content);
    expect(opening).toContain(`exactly as approved:\n\n${PLAN}`);
    expect(agent.plan?.text).toBe(PLAN);
  });

  it('never cuts an open call: compacting while an approval waits keeps the call and its approval', async () => {
    const model = contextModel((request, index) => {
      if (asksForSummary(request)) return [{ type: 'text', text: SUMMARY }];
      if (index < 3) return [{ type: 'tool_use', id: `toolu_${index}`, name: 'Read', input: { path: `f${index}` } }];
      return [{ type: 'tool_use', id: 'toolu_write', name: 'Write', input: { path: 'out' } }];
    });
    const write = defineTool({ name: 'Write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: () => 'written' });
    const agent = createAgent({ model, tools: [readTool(500), write] });
    const waiting = await agent.run('Work.').result;
    expect(waiting.status).toBe('awaiting-approval');
    await agent.compact();
    expect(textOf(agent.messages[0]!.content)).toContain('Write (toolu_write)');
    expect(agent.pendingApprovals).toHaveLength(1);
    model.calls.length = 0;
    const done = await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(done.status).toBeDefined();
    for (const call of model.calls) expect(call.problem).toBeUndefined();
  });
});

describe('cache-friendly by construction', () => {
  it('each request extends the last byte for byte (system, tools, history) across turns and mode switches; only a compaction rewrites it', async () => {
    const model = contextModel(reader(30));
    const agent = createAgent({ model, tools: [readTool(3_000)], maxTurns: 40, context: { window: 30_000, clearing: false, compaction: { threshold: 0.7, outputReserve: 1_000, keepTokens: 3_000 } } });
    let mode = 0;
    agent.on('turn-end', () => agent.setPermissionMode(mode++ % 2 === 0 ? 'acceptEdits' : 'default'));
    await agent.run('Read the files.').result;
    const turns = model.calls.filter((call) => !asksForSummary(call.request));
    let rewrites = 0;
    for (let index = 1; index < turns.length; index++) {
      const previous = turns[index - 1]!;
      const current = turns[index]!;
      expect(JSON.stringify(current.request.system)).toBe(JSON.stringify(previous.request.system));
      expect(JSON.stringify(current.request.tools)).toBe(JSON.stringify(previous.request.tools));
      const prefix = JSON.stringify(previous.messages.slice(0, -1));
      const extends_ = JSON.stringify(current.messages.slice(0, previous.messages.length - 1)) === prefix;
      if (!extends_) rewrites++;
    }
    const summaries = model.calls.filter((call) => asksForSummary(call.request)).length;
    expect(summaries).toBeGreaterThan(0);
    expect(rewrites).toBe(summaries);
  });

  it('the memory tool is usable from createAgent with the host’s store, and never leaves its root', async () => {
    const { memoryMemoryStore } = await import('../../src/index.js');
    const store = memoryMemoryStore();
    const model = contextModel((_, index) =>
      index === 0
        ? [
            { type: 'tool_use', id: 'toolu_m1', name: 'memory', input: { command: 'create', path: '/memories/notes.md', file_text: 'Prefers short answers.' } },
            { type: 'tool_use', id: 'toolu_m2', name: 'memory', input: { command: 'view', path: '/memories/../../etc/passwd' } },
          ]
        : [{ type: 'text', text: 'Noted.' }],
    );
    // Memory writes are asked in acceptEdits too (the store is not the workspace): the allow rule opts in.
    const agent = createAgent({ model, memory: { store }, permissionMode: 'acceptEdits', rules: { allow: ['memory'] } });
    await agent.run('Remember that I prefer short answers.').result;
    expect(store.files()).toEqual({ 'notes.md': 'Prefers short answers.' });
    const results = model.calls[1]!.messages.at(-1)!.content as ToolResultBlock[];
    expect(results[1]!.is_error).toBe(true);
    expect(model.calls[0]!.request.tools.map((tool) => tool.name)).toContain('memory');
  });
});

describe('tampered context state', () => {
  it('a snapshot whose spilled outputs or compaction count are malformed is refused, naming the field', async () => {
    const { SnapshotInvalidError } = await import('../../src/index.js');
    const agent = createAgent({ model: contextModel(() => [{ type: 'text', text: 'ok' }]) });
    await agent.run('Hi.').result;
    const bad = { ...agent.snapshot(), spilled: { out_x: { toolUseId: 'x', toolName: 'Read', text: 42 } } };
    expect(() => createAgent({ model: contextModel(() => []), resume: bad as never })).toThrow(SnapshotInvalidError);
    expect(() => createAgent({ model: contextModel(() => []), resume: bad as never })).toThrow(/spilled\.out_x\.text/);
    const count = { ...agent.snapshot(), compactions: -1 };
    expect(() => createAgent({ model: contextModel(() => []), resume: count as never })).toThrow(/compactions/);
  });
});
