/**
 * The demo: a writing assistant that reads the author's profile, plans an article and drafts it.
 * Offline (no ANTHROPIC_API_KEY) it runs on a scripted model; with a key, the same agent runs
 * against the real API.
 *
 *   npm run demo
 *   ANTHROPIC_API_KEY=sk-... npm run demo
 */
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool, type AgentEvent, type Model } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const profile = {
  name: 'Ada Park',
  voice: 'warm, concrete, short sentences, one idea per paragraph',
  audience: 'curious non-specialists',
  avoid: ['jargon without a gloss', 'listicles'],
};

const drafts = new Map<string, string>();

const profileReader = defineTool({
  name: 'profile_reader',
  description: "Reads the author's profile: name, voice, audience, and what to avoid.",
  inputSchema: z.object({}),
  readOnly: true,
  execute: () => profile,
});

const writeSection = defineTool({
  name: 'write_section',
  description: 'Writes one section of the draft, replacing any earlier version of it.',
  inputSchema: z.object({ heading: z.string().min(1), body: z.string().min(1) }),
  kind: 'edit',
  execute: ({ input }) => {
    drafts.set(input.heading, input.body);
    return `Saved section "${input.heading}" (${input.body.split(/\s+/).length} words).`;
  },
});

function offlineModel(): Model {
  return scriptedModel([
    turn("I'll start by reading the author's profile.", toolCall('profile_reader', {})),
    turn(
      'Got it: warm and concrete, for curious non-specialists. Here is the plan.',
      toolCall('TodoWrite', {
        todos: [
          { content: 'Write the opening', status: 'in_progress', activeForm: 'Writing the opening' },
          { content: 'Write the body', status: 'pending', activeForm: 'Writing the body' },
        ],
      }),
    ),
    turn(toolCall('write_section', { heading: 'Opening', body: 'At low tide the rocks become a city. Crabs keep the streets.' })),
    turn(
      toolCall('TodoWrite', {
        todos: [
          { content: 'Write the opening', status: 'completed', activeForm: 'Writing the opening' },
          { content: 'Write the body', status: 'in_progress', activeForm: 'Writing the body' },
        ],
      }),
      toolCall('write_section', { heading: 'Body', body: 'Every pool is a small experiment. Anemones wait. Snails graze.' }),
    ),
    turn(
      toolCall('TodoWrite', {
        todos: [
          { content: 'Write the opening', status: 'completed', activeForm: 'Writing the opening' },
          { content: 'Write the body', status: 'completed', activeForm: 'Writing the body' },
        ],
      }),
    ),
    'The draft is done: an opening and a body, in a warm, concrete voice.',
  ]);
}

const online = Boolean(process.env.ANTHROPIC_API_KEY);
const model = online ? anthropicModel({ model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-6' }) : offlineModel();

const agent = createAgent({
  model,
  system: 'You are a writing assistant. Read the author profile first, track your steps with TodoWrite, and write the draft section by section with write_section. Keep it short.',
  tools: [profileReader, writeSection],
  permissionMode: 'acceptEdits',
  maxTurns: 12,
});

function trace(event: AgentEvent): void {
  switch (event.type) {
    case 'turn-start':
      process.stdout.write(`\n── turn ${event.turn} ──\n`);
      break;
    case 'text-delta':
      process.stdout.write(event.text);
      break;
    case 'tool-call':
      process.stdout.write(`\n→ ${event.toolName} ${JSON.stringify(event.input)}\n`);
      break;
    case 'tool-result': {
      const content = typeof event.content === 'string' ? event.content : JSON.stringify(event.content);
      process.stdout.write(`${event.isError ? '✗' : '←'} ${event.toolName}: ${content.replace(/\s+/g, ' ').slice(0, 120)}\n`);
      break;
    }
    case 'todo-update':
      for (const todo of event.todos) {
        const mark = todo.status === 'completed' ? '[x]' : todo.status === 'in_progress' ? '[>]' : '[ ]';
        process.stdout.write(`   ${mark} ${todo.content}\n`);
      }
      break;
    case 'error':
      process.stdout.write(`\n! ${event.error.message}\n`);
      break;
    default:
      break;
  }
}

console.log(`agent-harness demo — ${online ? `real API (${model.modelId})` : 'offline, scripted model (set ANTHROPIC_API_KEY for the real API)'}`);
const run = agent.run('Draft a two-section article about tide pools for my blog.');
for await (const event of run) trace(event);
const result = await run.result;
console.log(`\n\n── ${result.status} after ${result.turns} turns ──`);
console.log(`usage: ${result.usage.inputTokens} input, ${result.usage.outputTokens} output, ${result.usage.cacheReadInputTokens} cache read, ${result.usage.cacheCreationInputTokens} cache write tokens${result.costUsd !== undefined ? `; about $${result.costUsd.toFixed(4)}` : ''}`);
console.log(`draft sections: ${[...drafts.keys()].join(', ') || 'none'}`);
if (result.status !== 'completed') process.exitCode = 1;
