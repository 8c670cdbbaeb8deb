import type { StructuredPlan } from './plan-schema.js';

/** Options of {@link formatPlanAsMarkdown}. */
export interface FormatPlanAsMarkdownOptions {
  /**
   * The top heading.
   * @default 'Plan'
   */
  title?: string;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

function indent(text: string, prefix: string): string {
  return text
    .trim()
    .split('\n')
    .map((line) => (line.trim() ? `${prefix}${line.trimEnd()}` : ''))
    .join('\n');
}

/**
 * Renders a structured plan as Markdown, for storing it as plan text (`agent.savePlan`) or showing
 * it to a person: a heading, the goal, then Outline, Steps (numbered, details indented below their
 * step) and Risks sections. Empty sections are left out.
 * @example await agent.savePlan(formatPlanAsMarkdown(plan));
 */
export function formatPlanAsMarkdown(plan: StructuredPlan, options: FormatPlanAsMarkdownOptions = {}): string {
  const parts: string[] = [`# ${options.title ?? 'Plan'}`, '', `**Goal:** ${oneLine(plan.goal)}`];
  if (plan.outline.length > 0) {
    parts.push('', '## Outline', '', ...plan.outline.map((item) => `- ${oneLine(item)}`));
  }
  if (plan.steps.length > 0) {
    parts.push('', '## Steps', '');
    plan.steps.forEach((step, index) => {
      parts.push(`${index + 1}. ${oneLine(step.title)}`);
      if (step.detail?.trim()) parts.push(indent(step.detail, '   '));
    });
  }
  if (plan.risks.length > 0) {
    parts.push('', '## Risks', '', ...plan.risks.map((risk) => `- ${oneLine(risk)}`));
  }
  return `${parts.join('\n')}\n`;
}
