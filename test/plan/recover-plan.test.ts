import { describe, expect, it } from 'vitest';
import { memoryPlanStore } from '../../src/plan/memory-plan-store.js';
import { PLAN_SOURCES, recoverPlan, type PlanSource } from '../../src/plan/recover-plan.js';
import type { SessionEntry } from '../../src/state/entries.js';
import { entry, streamed } from './entry-builders.js';

const SLUG = 'quiet-copper-lantern';

/** One session holding every source, each with its own text; `omit` leaves sources out. */
async function setup(omit: PlanSource[] = []) {
  const store = memoryPlanStore();
  if (!omit.includes('store')) await store.write(`${SLUG}.md`, 'from the store');
  const entries: SessionEntry[] = [entry.meta(SLUG), entry.user('Plan the article')];
  if (!omit.includes('plan-reference')) entries.push(entry.reference(`/plans/${SLUG}.md`, 'from the reference'));
  if (!omit.includes('exit-plan-mode')) {
    entries.push(entry.toolUse('toolu_exit', 'ExitPlanMode', { plan: 'from exit-plan-mode' }), entry.toolResult('toolu_exit'));
  }
  if (!omit.includes('snapshot')) entries.push(entry.snapshot(SLUG, 'from the snapshot'));
  if (!omit.includes('plan-content')) entries.push(entry.user('Implement the plan', { planContent: 'from plan-content' }));
  return { store, entries };
}

describe('recoverPlan', () => {
  it.each(PLAN_SOURCES.map((source, index) => [source, PLAN_SOURCES.slice(0, index)] as const))(
    '%s answers when the sources before it are missing',
    async (source, missing) => {
      const { store, entries } = await setup(missing);
      const recovered = await recoverPlan({ store, slug: SLUG, entries });
      expect(recovered?.source).toBe(source);
      expect(recovered?.text).toBe(`from ${source === 'store' || source === 'snapshot' || source === 'plan-reference' ? `the ${source.replace('plan-', '')}` : source}`);
    },
  );

  it('keeps the documented order when every source is present, even when lower ones are more recent', async () => {
    const { store } = await setup();
    // Highest priority first in time, lowest last: recency must not win over the order.
    const entries: SessionEntry[] = [
      entry.meta(SLUG),
      entry.snapshot(SLUG, 'from the snapshot'),
      entry.toolUse('toolu_exit', 'ExitPlanMode', { plan: 'from exit-plan-mode' }),
      entry.toolResult('toolu_exit'),
      entry.user('Implement the plan', { planContent: 'from plan-content' }),
      entry.reference(`/plans/${SLUG}.md`, 'from the reference'),
    ];
    expect((await recoverPlan({ store, slug: SLUG, entries }))?.source).toBe('store');
    expect((await recoverPlan({ entries }))?.source).toBe('snapshot');
    expect((await recoverPlan({ entries: entries.filter((item) => item.kind !== 'plan-snapshot') }))?.source).toBe('exit-plan-mode');
    expect((await recoverPlan({ entries: entries.slice(4) }))?.source).toBe('plan-content');
    expect((await recoverPlan({ entries: entries.slice(5) }))?.source).toBe('plan-reference');
  });

  it('returns undefined when nothing holds a plan', async () => {
    expect(await recoverPlan({ store: memoryPlanStore(), slug: SLUG, entries: [entry.meta(SLUG), entry.user('hi')] })).toBeUndefined();
    expect(await recoverPlan({ entries: [] })).toBeUndefined();
  });

  it('reports the store file name and reads the entries lazily from an async iterable', async () => {
    const { store, entries } = await setup();
    const recovered = await recoverPlan({ store, slug: SLUG, entries: streamed(entries) });
    expect(recovered).toEqual({ text: 'from the store', source: 'store', name: `${SLUG}.md` });
  });

  it('finds the slug in the history when none is given', async () => {
    const store = memoryPlanStore({ initial: { [`${SLUG}.md`]: 'stored' } });
    expect(await recoverPlan({ store, entries: streamed([entry.meta(SLUG)]) })).toEqual({ text: 'stored', source: 'store', name: `${SLUG}.md` });
  });

  it("takes the slug only from the main agent's session-meta, not a subagent's", async () => {
    const store = memoryPlanStore({ initial: { [`${SLUG}.md`]: '# main plan' } });
    const entries = [entry.meta(SLUG), entry.meta('brave-amber-harbor', 'a1')];
    expect(await recoverPlan({ store, entries })).toEqual({ text: '# main plan', source: 'store', name: `${SLUG}.md` });
  });

  it('does not count a rejected ExitPlanMode, nor one never answered', async () => {
    const entries = [
      entry.toolUse('t1', 'ExitPlanMode', { plan: 'approved one' }),
      entry.toolResult('t1'),
      entry.toolUse('t2', 'ExitPlanMode', { plan: 'rejected one' }),
      entry.toolResult('t2', { isError: true, content: "The user doesn't want to proceed with this tool use." }),
      entry.toolUse('t3', 'ExitPlanMode', { plan: 'still waiting' }),
    ];
    expect(await recoverPlan({ entries })).toEqual({ text: 'approved one', source: 'exit-plan-mode' });
  });

  it("prefers Claude Code's toolUseResult.plan (the approved, possibly edited plan) over the input", async () => {
    const entries = [
      entry.toolUse('t1', 'ExitPlanMode', { plan: 'as proposed' }),
      entry.toolResult('t1', { toolUseResult: { plan: 'as edited', isAgent: false, filePath: `/home/u/.claude/plans/${SLUG}.md` } }),
      // Claude Code 2.x may leave the input empty and record the plan only on the result.
      entry.toolUse('t2', 'ExitPlanMode', {}),
      entry.toolResult('t2', { toolUseResult: { plan: 'only on the result' } }),
    ];
    expect(await recoverPlan({ entries: entries.slice(0, 2) })).toEqual({ text: 'as edited', source: 'exit-plan-mode', name: `/home/u/.claude/plans/${SLUG}.md` });
    expect((await recoverPlan({ entries }))?.text).toBe('only on the result');
  });

  it('takes the latest candidate of a source', async () => {
    const entries = [entry.snapshot(SLUG, 'first'), entry.snapshot(SLUG, 'second'), entry.user('x', { planContent: 'a' }), entry.user('y', { planContent: 'b' })];
    expect((await recoverPlan({ entries }))?.text).toBe('second');
    expect((await recoverPlan({ entries: entries.slice(2) }))?.text).toBe('b');
  });

  it("keeps agents apart: a subagent's plan comes from its own entries and file", async () => {
    const store = memoryPlanStore({ initial: { [`${SLUG}-agent-sub1.md`]: 'sub1 stored' } });
    const entries = [entry.meta(SLUG), entry.snapshot(SLUG, 'main plan'), entry.snapshot(SLUG, 'sub2 plan', 'sub2')];
    expect(await recoverPlan({ entries, agentId: 'sub2' })).toEqual({ text: 'sub2 plan', source: 'snapshot', name: `${SLUG}-agent-sub2.md` });
    expect((await recoverPlan({ entries, store, agentId: 'sub1' }))?.text).toBe('sub1 stored');
    expect((await recoverPlan({ entries }))?.text).toBe('main plan');
    expect(await recoverPlan({ entries: [entry.snapshot(SLUG, 'main plan')], agentId: 'sub3' })).toBeUndefined();
  });

  it('resolves a plan reference without text through the store, by file name', async () => {
    const store = memoryPlanStore({ initial: { 'old-name.md': 'referenced text' } });
    const entries = [entry.reference('/home/u/.claude/plans/old-name.md')];
    expect(await recoverPlan({ store, entries })).toEqual({ text: 'referenced text', source: 'plan-reference', name: '/home/u/.claude/plans/old-name.md' });
    expect(await recoverPlan({ entries })).toBeUndefined();
    // An earlier reference with text still answers when the last one cannot be resolved.
    expect((await recoverPlan({ entries: [entry.reference('a.md', 'kept text'), entry.reference('gone.md')] }))?.text).toBe('kept text');
  });

  it('ignores blank plans', async () => {
    const store = memoryPlanStore({ initial: { [`${SLUG}.md`]: '  \n' } });
    expect((await recoverPlan({ store, slug: SLUG, entries: [entry.snapshot(SLUG, 'real')] }))?.source).toBe('snapshot');
  });

  it("ranks Claude Code's file-history copy as a snapshot until a later plan supersedes it; a plan saved at approval never is", async () => {
    const exit = [entry.toolUse('t1', 'ExitPlanMode', { plan: 'approved later' }), entry.toolResult('t1')];
    expect(await recoverPlan({ entries: [entry.fileHistory(SLUG, 'copy')] })).toEqual({ text: 'copy', source: 'snapshot', name: `${SLUG}.md` });
    expect((await recoverPlan({ entries: [entry.fileHistory(SLUG, 'copy'), ...exit] }))?.text).toBe('approved later');
    expect((await recoverPlan({ entries: [...exit, entry.fileHistory(SLUG, 'copy')] }))?.text).toBe('copy');
    expect((await recoverPlan({ entries: [entry.fileHistory(SLUG, 'copy'), entry.user('go', { planContent: 'handed over' })] }))?.source).toBe('plan-content');
    expect((await recoverPlan({ entries: [entry.fileHistory(SLUG, 'copy'), entry.reference(`/p/${SLUG}.md`, 'after compaction')] }))?.source).toBe('plan-reference');
    // A rejected or unanswered proposal supersedes nothing.
    const refused = [entry.toolUse('t2', 'ExitPlanMode', { plan: 'no' }), entry.toolResult('t2', { isError: true })];
    expect((await recoverPlan({ entries: [entry.fileHistory(SLUG, 'copy'), ...refused, entry.toolUse('t3', 'ExitPlanMode', { plan: 'waiting' })] }))?.text).toBe('copy');
    // Saved at approval: the order holds however recent the others are.
    expect((await recoverPlan({ entries: [entry.snapshot(SLUG, 'saved'), ...exit] }))?.text).toBe('saved');
    // Both kinds: the later of the two, unless the copy was superseded.
    expect((await recoverPlan({ entries: [entry.snapshot(SLUG, 'saved'), entry.fileHistory(SLUG, 'copy')] }))?.text).toBe('copy');
    expect((await recoverPlan({ entries: [entry.fileHistory(SLUG, 'copy'), entry.snapshot(SLUG, 'saved')] }))?.text).toBe('saved');
    expect((await recoverPlan({ entries: [entry.snapshot(SLUG, 'saved'), entry.fileHistory(SLUG, 'copy'), ...exit] }))?.text).toBe('saved');
  });

  it('reads exit_plan_mode (Claude Code 1.0.x) and a plan named only by its file', async () => {
    expect(await recoverPlan({ entries: [entry.toolUse('t1', 'exit_plan_mode', { plan: 'one' }), entry.toolResult('t1')] })).toEqual({ text: 'one', source: 'exit-plan-mode' });
    const fileOnly = [entry.toolUse('t1', 'ExitPlanMode', { planFilePath: '/x/plans/named.md' }), entry.toolResult('t1')];
    const store = memoryPlanStore({ initial: { 'named.md': 'three' } });
    expect(await recoverPlan({ store, entries: fileOnly })).toEqual({ text: 'three', source: 'exit-plan-mode', name: '/x/plans/named.md' });
    // The latest approval wins even when it names only a file the store lacks: an older text is not returned for it.
    const older = [entry.toolUse('t0', 'ExitPlanMode', { plan: 'older' }), entry.toolResult('t0')];
    expect(await recoverPlan({ store: memoryPlanStore(), entries: [...older, ...fileOnly] })).toBeUndefined();
  });
});
