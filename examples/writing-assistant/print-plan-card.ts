import type { StructuredPlan } from 'agent-harness';

/** Renders a structured plan as a terminal card. */
export function planCard(plan: StructuredPlan, width = 72): string {
  const inner = width - 4;
  const wrap = (text: string, indent = ''): string[] => {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/)) {
      if ((line + ' ' + word).trim().length > inner - indent.length) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(line);
    return lines.map((text, index) => (index === 0 ? text : indent + text));
  };
  const body = [
    'PLAN',
    '',
    ...wrap(`Goal: ${plan.goal}`, '      '),
    '',
    'Outline',
    ...plan.outline.flatMap((item, index) => wrap(`${index + 1}. ${item}`, '   ')),
    '',
    'Steps',
    ...plan.steps.flatMap((step) => wrap(`[ ] ${step.title}${step.detail ? ` — ${step.detail}` : ''}`, '    ')),
    '',
    'Risks',
    ...plan.risks.flatMap((risk) => wrap(`! ${risk}`, '  ')),
  ];
  const top = `╭${'─'.repeat(width - 2)}╮`;
  const bottom = `╰${'─'.repeat(width - 2)}╯`;
  return [top, ...body.map((line) => `│ ${line.padEnd(inner)} │`), bottom].join('\n');
}
