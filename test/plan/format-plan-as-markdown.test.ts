import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatPlanAsMarkdown } from '../../src/plan/format-plan-as-markdown.js';

describe('formatPlanAsMarkdown', () => {
  it('shows a step field named __proto__ like any other (a model cannot hide a field from the card)', () => {
    const plan = JSON.parse('{"goal":"G","steps":[{"title":"Step","__proto__":{"command":"rm -rf drafts"},"owner":"me"}]}');
    const text = formatPlanAsMarkdown(plan);
    expect(text).toContain('rm -rf drafts');
    expect(text).toContain('me');
  });

  it('renders goal, outline, numbered steps with indented details, and risks', () => {
    const text = formatPlanAsMarkdown({
      goal: 'Publish a guide\nto config files',
      outline: ['Why', 'Formats'],
      steps: [{ title: 'Draft the intro', detail: 'Open with a story.\n\nKeep it short.' }, { title: 'Compare formats' }],
      risks: ['Too technical'],
    });
    expect(text).toBe(
      [
        '# Plan',
        '',
        '**Goal:** Publish a guide to config files',
        '',
        '## Outline',
        '',
        '- Why',
        '- Formats',
        '',
        '## Steps',
        '',
        '1. Draft the intro',
        '   Open with a story.',
        '',
        '   Keep it short.',
        '2. Compare formats',
        '',
        '## Risks',
        '',
        '- Too technical',
        '',
      ].join('\n'),
    );
  });

  it('leaves out empty sections and takes a title', () => {
    const text = formatPlanAsMarkdown({ goal: 'G', outline: [], steps: [{ title: 'Do it' }], risks: [] }, { title: 'Newsletter plan' });
    expect(text).toBe('# Newsletter plan\n\n**Goal:** G\n\n## Steps\n\n1. Do it\n');
  });

  it('renders a plan from a custom schema: sections in its own order, named items, nested fields', () => {
    const TripPlan = z.object({
      title: z.string(),
      summary: z.string(),
      days: z.array(z.object({ name: z.string(), detail: z.string().optional(), stops: z.array(z.string()), budget: z.object({ eur: z.number() }) })),
      openQuestions: z.array(z.string()),
      confidence: z.number(),
    });
    const plan: z.output<typeof TripPlan> = {
      title: 'Lisbon in three days',
      summary: 'Walk the old town,\nthen the coast.',
      days: [
        { name: 'Alfama', detail: 'Start early.', stops: ['Castle', 'Fado bar'], budget: { eur: 60 } },
        { name: 'Belém', stops: [], budget: { eur: 40 } },
      ],
      openQuestions: ['Rain plan?'],
      confidence: 0.8,
    };
    expect(formatPlanAsMarkdown(plan)).toBe(
      [
        '# Lisbon in three days',
        '',
        '## Summary',
        '',
        'Walk the old town,',
        'then the coast.',
        '',
        '## Days',
        '',
        '1. Alfama',
        '   Start early.',
        '   - **Stops:**',
        '     - Castle',
        '     - Fado bar',
        '   - **Budget:**',
        '     - **Eur:** 60',
        '2. Belém',
        '   - **Budget:**',
        '     - **Eur:** 40',
        '',
        '## Open questions',
        '',
        '- Rain plan?',
        '',
        '## Confidence',
        '',
        '0.8',
        '',
      ].join('\n'),
    );
  });

  it('does not need the default fields (a plan without outline, steps or risks used to crash)', () => {
    expect(formatPlanAsMarkdown({ goal: 'Ship it', tasks: ['Write', 'Test'] })).toBe('# Plan\n\n**Goal:** Ship it\n\n## Tasks\n\n- Write\n- Test\n');
    expect(formatPlanAsMarkdown({ steps: [{ task: 'a' }, 'b', { other: 1 }] })).toBe('# Plan\n\n## Steps\n\n1. a\n2. b\n3. Item 3\n   - **Other:** 1\n');
  });

  it('takes any value: a string, a list, nothing', () => {
    expect(formatPlanAsMarkdown('1. Do it\n2. Check it')).toBe('# Plan\n\n1. Do it\n2. Check it\n');
    expect(formatPlanAsMarkdown(['a', 'b'], { title: 'Steps' })).toBe('# Steps\n\n- a\n- b\n');
    expect(formatPlanAsMarkdown(null)).toBe('# Plan\n');
    expect(formatPlanAsMarkdown({ title: 'Own title', goal: 'g' }, { title: 'Given' })).toBe('# Given\n\n## Title\n\nOwn title\n\n**Goal:** g\n');
  });

  it('survives cycles and deep nesting', () => {
    const cyclic: Record<string, unknown> = { goal: 'g' };
    cyclic.self = { again: cyclic };
    expect(formatPlanAsMarkdown(cyclic)).toContain('[circular]');
    let deep: unknown = 'bottom';
    for (let level = 0; level < 50; level++) deep = { level: deep };
    expect(formatPlanAsMarkdown({ deep }).length).toBeLessThan(5_000);
  });

  it('never throws, and always starts with one heading (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (plan) => {
        const text = formatPlanAsMarkdown(plan);
        expect(text.startsWith('# ')).toBe(true);
        expect(text.endsWith('\n')).toBe(true);
      }),
    );
  });
});

