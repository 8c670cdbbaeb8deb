/**
 * The model the server uses: the real API when `ANTHROPIC_API_KEY` is set, else an offline demo.
 *
 * The demo is a scripted model whose every turn is computed from the conversation alone, so it
 * follows whatever the page answers (reject the plan, deny a write) and carries on the same way
 * after a server restart.
 */
import { anthropicModel, type Message, type Model, type ModelRequest, type ToolResultBlock, type ToolUseBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptedTurn } from 'agent-harness/testing';

/** The prompt the page suggests. */
export const DEMO_PROMPT = 'Write a one-page brief for the Elm Street community garden and a checklist for opening day.';

const FIRST_PLAN = `## Goal
A one-page brief for the Elm Street community garden, and a checklist for opening day.

## Steps
1. Write \`brief.md\`: what the garden is, who it is for, how to join.
2. Write \`checklist.md\`: the tasks before opening day.

## Risks
- The opening date is not fixed yet, so the checklist leaves it open.`;

type TodoStatus = 'pending' | 'in_progress' | 'completed';

const todos = (statuses: [TodoStatus, TodoStatus]) => ({
  todos: [
    { content: 'Write the brief', activeForm: 'Writing the brief', status: statuses[0] },
    { content: 'Write the checklist', activeForm: 'Writing the checklist', status: statuses[1] },
  ],
});

const BRIEF = `# Elm Street Community Garden

Twelve raised beds behind the library, open to every neighbour.
Plots are free; tools and water are shared. Join at the Saturday meeting.
`;

const CHECKLIST = `# Opening day checklist

- [ ] Fill the raised beds with compost
- [ ] Label the plots
- [ ] Test the water tap
- [ ] Print the sign-up sheet
`;

/** How the Write of a file went: `undefined` while it has not been tried. */
function writeOutcome(messages: readonly Message[], results: Map<string, ToolResultBlock>, file: string): 'written' | 'not-written' | undefined {
  let outcome: 'written' | 'not-written' | undefined;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_use' || (block as ToolUseBlock).name !== 'Write') continue;
      const { id, input } = block as ToolUseBlock & { input: { file_path: string } };
      const result = results.get(id);
      if (input.file_path === file && result) outcome = result.is_error ? 'not-written' : 'written';
    }
  }
  return outcome;
}

/** A todo's status from what really happened: completed only when its file was written. */
const statusOf = (outcome: 'written' | 'not-written' | undefined): TodoStatus => (outcome === 'written' ? 'completed' : 'pending');

type Step = (id: string, messages: readonly Message[], results: Map<string, ToolResultBlock>) => ScriptedTurn;

/** The steps after the plan is approved, one model turn each; `id` is the turn's unique tool_use id. */
const EXECUTION: Step[] = [
  (id) => turn('Plan approved. Tracking the work as a todo list.', toolCall('TodoWrite', todos(['in_progress', 'pending']), id)),
  (id) => turn('Writing the brief.', toolCall('Write', { file_path: 'brief.md', content: BRIEF }, id)),
  (id, messages, results) => turn(toolCall('TodoWrite', todos([statusOf(writeOutcome(messages, results, 'brief.md')), 'in_progress']), id)),
  (id) => turn('Now the checklist.', toolCall('Write', { file_path: 'checklist.md', content: CHECKLIST }, id)),
  (id, messages, results) =>
    turn(toolCall('TodoWrite', todos([statusOf(writeOutcome(messages, results, 'brief.md')), statusOf(writeOutcome(messages, results, 'checklist.md'))]), id)),
];

/** The closing message: what was written, and what was not (refused by the user, or failed). */
function summary(messages: readonly Message[], results: Map<string, ToolResultBlock>): ScriptedTurn {
  const written: string[] = [];
  const skipped: string[] = [];
  for (const file of ['brief.md', 'checklist.md']) (writeOutcome(messages, results, file) === 'written' ? written : skipped).push(`\`${file}\``);
  const done = written.length ? `Written: ${written.join(', ')}.` : 'Nothing was written.';
  return turn(`Done. ${done}${skipped.length ? ` Not written (you declined, or the write failed): ${skipped.join(', ')}; those todos stay open.` : ''}`);
}

function toolResults(messages: readonly Message[]): Map<string, ToolResultBlock> {
  const results = new Map<string, ToolResultBlock>();
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result') results.set((block as ToolResultBlock).tool_use_id, block as ToolResultBlock);
  }
  return results;
}

function feedbackOf(result: ToolResultBlock): string {
  return typeof result.content === 'string' ? result.content : result.content.map((block) => ('text' in block ? block.text : '')).join(' ');
}

/** The demo's next turn, from the conversation so far. */
export function demoTurn(request: ModelRequest): ScriptedTurn {
  const { messages } = request;
  // Ids from the history's length: unique in the session, and the same after a server restart.
  const id = `toolu_demo_${messages.length}`;
  const results = toolResults(messages);
  const plans = messages.flatMap((message, index) =>
    message.role === 'assistant' ? message.content.filter((block) => block.type === 'tool_use' && block.name === 'ExitPlanMode').map((block) => ({ index, id: (block as { id: string }).id })) : [],
  );
  const last = plans.at(-1);
  if (!last) return turn('I will plan this first and show you the plan before writing anything.', toolCall('ExitPlanMode', { plan: FIRST_PLAN }, id));
  const answer = results.get(last.id);
  if (answer?.is_error) {
    const revised = `${FIRST_PLAN}\n\n## Changed after your feedback (revision ${plans.length})\n- ${feedbackOf(answer).replace(/\s+/g, ' ')}`;
    return turn('Thanks, here is the revised plan.', toolCall('ExitPlanMode', { plan: revised }, id));
  }
  // Turns taken since the approval: assistant messages after the one that presented the plan.
  const step = messages.slice(last.index + 1).filter((message) => message.role === 'assistant').length;
  if (step < EXECUTION.length) return EXECUTION[step]!(id, messages, results);
  if (step === EXECUTION.length) return summary(messages, results);
  return turn('(offline demo) The work is done. Set ANTHROPIC_API_KEY to talk to a real model.');
}

/** The offline demo model: an endless script of {@link demoTurn}. */
export function demoModel(): Model {
  const model = scriptedModel([]);
  const next = (request: ModelRequest) => {
    model.push(next);
    return demoTurn(request);
  };
  model.push(next);
  return model;
}

/** The real API when `ANTHROPIC_API_KEY` is set (`ANTHROPIC_MODEL`, `ANTHROPIC_BASE_URL` optional), else the demo. */
export function modelFromEnvironment(environment: NodeJS.ProcessEnv = process.env): { model: Model; offline: boolean } {
  if (!environment.ANTHROPIC_API_KEY) return { model: demoModel(), offline: true };
  const model = anthropicModel({
    model: environment.ANTHROPIC_MODEL ?? 'claude-sonnet-4-6',
    apiKey: environment.ANTHROPIC_API_KEY,
    ...(environment.ANTHROPIC_BASE_URL ? { baseURL: environment.ANTHROPIC_BASE_URL } : {}),
  });
  return { model, offline: false };
}
