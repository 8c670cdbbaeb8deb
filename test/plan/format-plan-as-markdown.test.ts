import { describe, expect, it } from 'vitest';
import { formatPlanAsMarkdown } from '../../src/plan/format-plan-as-markdown.js';

describe('formatPlanAsMarkdown', () => {
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
});
