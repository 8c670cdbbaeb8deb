import { scriptedModel, toolCall, turn, type ScriptedModel } from 'agent-harness/testing';
import type { StructuredPlan, Todo } from 'agent-harness';

const plan: StructuredPlan = {
  goal: 'A 600-word article that makes a first visit to a tide pool feel inviting',
  outline: ['Sit still for five minutes', 'A city in a rock basin', 'Leave it as you found it'],
  steps: [
    { title: 'Write the opening', detail: 'Start from the docent: sit still and the pool starts moving.' },
    { title: 'Write the middle', detail: 'Anemones, hermit crab queues, ochre stars; heat and salt as the experiment.' },
    { title: 'Write the ending', detail: 'Put rocks back as found; an invitation for the next low tide.' },
  ],
  risks: ['Too many species names for non-specialists', 'Running long on a phone screen'],
};

const todos = (statuses: Array<Todo['status']>): Todo[] =>
  plan.steps.map((step, index) => ({ content: step.title, status: statuses[index]!, activeForm: step.title.replace(/^Write/, 'Writing') }));

/** The scripted conversation the demo plays offline: explore, plan, then write with a ticking todo list. */
export function offlineModel(): ScriptedModel {
  return scriptedModel([
    // Plan phase: explore read-only (one premature write is denied by the guard).
    turn("I'll read the author's profile and see what material we have.", toolCall('profile_reader', {}), toolCall('list_material', {})),
    turn(
      'Reading the notes and the interview.',
      toolCall('read_material', { name: 'tide-pool-notes.md' }),
      toolCall('read_material', { name: 'interview.md' }),
      toolCall('write_section', { heading: 'Opening', body: 'At low tide...' }),
    ),
    'I have what I need: a warm voice for curious phone readers, field notes, and a quote to open with.',
    // requestPlan: the plan as JSON.
    JSON.stringify(plan, null, 2),
    // Execution: the house style first (the Skill tool loads its instructions), then section by
    // section, the todo list ticking over.
    turn('Before drafting, I load the house style.', toolCall('Skill', { skill: 'house-style' })),
    turn(
      toolCall('TodoWrite', { todos: todos(['in_progress', 'pending', 'pending']) }),
      toolCall('write_section', {
        heading: 'Sit still for five minutes',
        body: 'A docent at Pillar Point gave me the best advice I have had about tide pools. Sit still for five minutes. Then the pool starts moving.',
      }),
    ),
    turn(
      toolCall('TodoWrite', { todos: todos(['completed', 'in_progress', 'pending']) }),
      toolCall('write_section', {
        heading: 'A city in a rock basin',
        body: 'Anemones close up to keep their water. Hermit crabs queue when a bigger shell turns up. Every pool is a small experiment in heat, salt and appetite.',
      }),
    ),
    turn(
      toolCall('TodoWrite', { todos: todos(['completed', 'completed', 'in_progress']) }),
      toolCall('write_section', {
        heading: 'Leave it as you found it',
        body: 'If you lift a rock, put it back the way it was. Someone lives under it. Come back at the next low tide and sit still again.',
      }),
    ),
    turn(toolCall('TodoWrite', { todos: todos(['completed', 'completed', 'completed']) })),
    'The draft is written: three short sections in a warm, concrete voice.',
    // verifyPlan: the read-only verifier checks the work against the plan and answers as JSON.
    turn('Checking the material the opening relies on.', toolCall('read_material', { name: 'interview.md' })),
    JSON.stringify({
      verdict: 'compliant',
      summary: 'All three planned sections were written in order, each as the plan describes.',
      steps: plan.steps.map((step, index) => ({
        step: step.title,
        status: 'done',
        evidence: `write_section "${plan.outline[index]}" succeeded${index === 0 ? '; it opens with the docent from interview.md' : ''}.`,
      })),
    }),
  ]);
}
