/**
 * The model case: a writing assistant that plans an article read-only, shows the plan as a
 * card, and then writes it section by section while its todo list ticks over.
 *
 * It stays in `acceptEdits` throughout and runs its own phases with the plan-phase guard:
 * while planning, write tools are refused at once; `requestPlan` then asks the same session for
 * the plan as JSON (the explored material stays in context), and the plan becomes the todo list.
 * Before it drafts, it loads the blog's "house style" skill: only the skill's name and description
 * sit in the system prompt; its instructions enter the conversation when the model asks for them.
 * After the draft, `verifyPlan` has a read-only verifier subagent check the work against the plan.
 *
 *   npm run demo                          offline, scripted model, asks you to confirm the plan
 *   npm run demo -- --yes                 confirm automatically
 *   ANTHROPIC_API_KEY=... npm run demo    the same agent against the real API
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import {
  anthropicModel,
  createAgent,
  createPlanPhase,
  formatPlanAsMarkdown,
  planToTodos,
  requestPlan,
  verifyPlan,
  type AgentRun,
  type Model,
} from 'agent-harness';
import { loadSkills } from 'agent-harness/node';
import { offlineModel } from './offline-script.js';
import { planCard } from './print-plan-card.js';
import { writingTools } from './tools.js';
import { todoList, trace } from './trace.js';

const here = dirname(fileURLToPath(import.meta.url));
const yes = process.argv.includes('--yes');
const online = Boolean(process.env.ANTHROPIC_API_KEY);
const model: Model = online ? anthropicModel({ model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-6' }) : offlineModel();
const draftFile = join(mkdtempSync(join(tmpdir(), 'writing-assistant-')), 'draft.md');
const { tools } = writingTools({ materialDir: join(here, 'material'), draftFile });

const phase = createPlanPhase();
const agent = createAgent({
  model,
  system:
    "You are a writing assistant. First explore: read the author's profile and the research material. Write nothing until the plan is approved. Then load the house style, and write the article section by section with write_section, tracking each step with TodoWrite.",
  tools,
  skills: loadSkills(join(here, 'skills')),
  permissionMode: 'acceptEdits',
  hooks: { ...phase.hooks },
  maxTurns: 20,
});

const total = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0, turns: 0 };

async function show(run: AgentRun): Promise<void> {
  for await (const event of run) trace(event);
  const result = await run.result;
  total.input += result.usage.inputTokens;
  total.output += result.usage.outputTokens;
  total.cacheRead += result.usage.cacheReadInputTokens;
  total.cacheWrite += result.usage.cacheCreationInputTokens;
  total.costUsd += result.costUsd ?? 0;
  total.turns += result.turns;
  if (result.status !== 'completed') throw new Error(`The run ended with status ${result.status}${result.error ? `: ${result.error.message}` : ''}`);
}

async function confirm(question: string): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) {
    console.log(`${question} yes (not a terminal: confirming automatically; pass --yes to say so)`);
    return true;
  }
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await terminal.question(`${question} [Y/n] `);
  terminal.close();
  return !/^n/i.test(answer.trim());
}

console.log(`writing assistant — ${online ? `real API (${model.modelId})` : 'offline, scripted model (set ANTHROPIC_API_KEY for the real API)'}\n`);

console.log('── 1. Explore (plan phase: writing is refused) ──');
phase.begin();
await show(agent.run('I want a short article for my blog about visiting tide pools. Explore the material and think about the plan.'));

console.log('\n\n── 2. Plan ──');
const { plan } = await requestPlan(agent, { phase });
console.log(planCard(plan));
if (!(await confirm('Write the article from this plan?'))) {
  console.log('Stopped before writing. The plan was not saved.');
  process.exit(0);
}
const saved = await agent.savePlan(formatPlanAsMarkdown(plan));
agent.setTodos(planToTodos(plan));
console.log(`Plan saved as ${saved.name}.\n${todoList(agent.todos)}`);

console.log('── 3. Write ──');
const started = Date.now();
await show(agent.run('The plan is approved. Write the article now, one section per step, and keep the todo list up to date.'));

console.log('\n\n── 4. Verify against the plan ──');
const verification = await verifyPlan({ agent });
console.log(`verdict: ${verification.verdict} — ${verification.summary}`);
for (const finding of verification.steps) console.log(`  ${finding.status === 'done' ? '✓' : '✗'} ${finding.step}: ${finding.evidence}`);

console.log(`\n\n── done in ${((Date.now() - started) / 1000).toFixed(1)} s ──`);
console.log(todoList(agent.todos));
console.log(`draft: ${draftFile}`);
console.log(
  `usage: ${total.turns} model calls; ${total.input} input, ${total.output} output, ${total.cacheRead} cache-read, ${total.cacheWrite} cache-write tokens${online ? `; about $${total.costUsd.toFixed(4)}` : ''}`,
);
