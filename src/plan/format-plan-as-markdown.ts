import { checkOptions, isString, type OptionsSpec } from '../options/index.js';

/** Options of {@link formatPlanAsMarkdown}. */
export interface FormatPlanAsMarkdownOptions {
  /**
   * The top heading.
   * @default the plan's own `title` when it is a string, else 'Plan'
   */
  title?: string;
}

const OPTIONS: OptionsSpec<FormatPlanAsMarkdownOptions> = { title: isString };

/** Fields that name an item of a list (a step's `title`), in the order they are looked for. */
const HEADLINE_KEYS = ['title', 'name', 'step', 'task', 'summary', 'content', 'description'];
/** Fields shown as a paragraph under their item (a step's `detail`). */
const DETAIL_KEYS = new Set(['detail', 'details']);
/** Deeper than this, a value is shown on one line. */
const MAX_DEPTH = 6;

type Value = unknown;

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() ? `${prefix}${line.trimEnd()}` : ''))
    .join('\n');
}

/** `nextSteps` and `next_steps` → `Next steps`. */
function humanize(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

function isRecord(value: Value): value is Record<string, Value> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmpty(value: Value): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(isEmpty);
  if (isRecord(value)) return Object.values(value).every(isEmpty);
  return false;
}

function isScalar(value: Value): boolean {
  return typeof value !== 'object' || value === null;
}

function scalarText(value: Value): string {
  return typeof value === 'string' ? value.trim() : String(value);
}

/** One line for a value too deep, or repeated inside itself. */
function inline(value: Value): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[circular]';
  }
}

/** Markdown for any value: a paragraph, a bullet or numbered list, or `**Field:** value` bullets. */
function block(value: Value, depth: number, seen: Set<object>): string {
  if (isScalar(value)) return scalarText(value);
  if (depth > MAX_DEPTH || seen.has(value as object)) return inline(value);
  seen.add(value as object);
  try {
    if (Array.isArray(value)) {
      const items = value.filter((item) => !isEmpty(item));
      if (items.every(isScalar)) return items.map((item) => `- ${oneLine(scalarText(item))}`).join('\n');
      return items.map((item, index) => listItem(item, index, depth, seen)).join('\n');
    }
    return fieldList(value as Record<string, Value>, depth, seen);
  } finally {
    seen.delete(value as object);
  }
}

/** `- **Field:** value` for each field; nested values indented below. */
function fieldList(record: Record<string, Value>, depth: number, seen: Set<object>): string {
  return Object.entries(record)
    .filter(([, value]) => !isEmpty(value))
    .map(([key, value]) => (isScalar(value) ? `- **${humanize(key)}:** ${oneLine(scalarText(value))}` : `- **${humanize(key)}:**\n${indent(block(value, depth + 1, seen), '  ')}`))
    .join('\n');
}

/** A numbered item: its headline, then its detail as a paragraph and its other fields, indented. */
function listItem(item: Value, index: number, depth: number, seen: Set<object>): string {
  const number = `${index + 1}. `;
  const pad = ' '.repeat(number.length);
  if (!isRecord(item)) return `${number}${indent(block(item, depth + 1, seen), pad).trimStart()}`;
  const headlineKey = HEADLINE_KEYS.find((key) => typeof item[key] === 'string' && item[key].trim() !== '');
  const lines = [`${number}${headlineKey ? oneLine(item[headlineKey] as string) : `Item ${index + 1}`}`];
  // No prototype: a field the model named `__proto__` is a field to show, not the object's prototype.
  const rest: Record<string, Value> = Object.create(null) as Record<string, Value>;
  for (const [key, value] of Object.entries(item)) {
    if (key === headlineKey || isEmpty(value)) continue;
    if (DETAIL_KEYS.has(key) && typeof value === 'string') lines.push(indent(value.trim(), pad));
    else rest[key] = value;
  }
  if (Object.keys(rest).length > 0) lines.push(indent(fieldList(rest, depth + 1, seen), pad));
  return lines.join('\n');
}

/**
 * Renders a plan as Markdown, for storing it as plan text (`agent.savePlan`) or showing it to a
 * person. Any plan works — the default {@link PlanSchema} shape or one from your own schema
 * (`requestPlan({ schema })`): a heading, `**Goal:**` when the plan has a `goal`, then one section
 * per field in the plan's own order (`nextSteps` → "## Next steps"). Lists of text become bullets;
 * lists of objects become numbered items named by their `title` (or `name`, `step`, `task`, …),
 * with a `detail` indented below and other fields as `**Field:** value`. Empty fields are left out.
 * @example await agent.savePlan(formatPlanAsMarkdown(plan));
 */
export function formatPlanAsMarkdown(plan: unknown, options: FormatPlanAsMarkdownOptions = {}): string {
  checkOptions<FormatPlanAsMarkdownOptions>(options, OPTIONS, { owner: 'formatPlanAsMarkdown', optional: true });
  const ownTitle = isRecord(plan) && typeof plan.title === 'string' && plan.title.trim() !== '' ? oneLine(plan.title) : undefined;
  const title = options.title ?? ownTitle ?? 'Plan';
  const parts: string[] = [`# ${title}`];
  const seen = new Set<object>();
  if (!isRecord(plan)) {
    if (!isEmpty(plan)) parts.push('', block(plan, 0, seen));
    return `${parts.join('\n')}\n`;
  }
  seen.add(plan);
  for (const [key, value] of Object.entries(plan)) {
    if (isEmpty(value) || (key === 'title' && ownTitle !== undefined && options.title === undefined)) continue;
    if (key === 'goal' && isScalar(value)) parts.push('', `**Goal:** ${oneLine(scalarText(value))}`);
    else parts.push('', `## ${humanize(key)}`, '', block(value, 1, seen));
  }
  return `${parts.join('\n')}\n`;
}
