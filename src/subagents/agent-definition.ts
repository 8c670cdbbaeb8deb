import type { AgentDefinition } from '../runtime/agent-definition.js';

export type { AgentDefinition };

const READ_ONLY_NOTE = 'You are read-only: you can read and search, never change anything.';

/**
 * The built-in subagent types a host can opt into, e.g. `agents: { ...BUILTIN_AGENTS }` or
 * `agents: { explore: BUILTIN_AGENTS.explore }`: a general-purpose one with the parent's tools, a
 * read-only explorer, a read-only planner and a read-only verifier (used by `verifyPlan`).
 */
export const BUILTIN_AGENTS = {
  'general-purpose': {
    description: 'A general-purpose agent for a self-contained multi-step task (research, changes, checks). Give it everything it needs in the prompt.',
    prompt:
      'You are a subagent working on one task for another agent. Do the task with the tools you have, then answer with a concise report of what you did and found: the other agent reads only your final message.',
  },
  explore: {
    description: 'A fast read-only explorer: finds files, reads code and documents, answers questions about them. Cannot change anything.',
    prompt: `You are a read-only explorer working for another agent. ${READ_ONLY_NOTE} Search and read efficiently, then answer with what you found, naming files and places precisely: the other agent reads only your final message.`,
    readOnly: true,
  },
  plan: {
    description: 'A read-only planner: explores what is there and returns a step-by-step plan for a task. Cannot change anything.',
    prompt: `You are a read-only planner working for another agent. ${READ_ONLY_NOTE} Explore what the task touches, weigh the approaches, and answer with a concrete plan: the goal, the steps in order (naming the files or parts each touches), and the risks.`,
    readOnly: true,
  },
  verify: {
    description: 'A read-only verifier: checks the work done against an approved plan, step by step, with evidence. Cannot change anything.',
    prompt: `You are a read-only verifier. ${READ_ONLY_NOTE} You are given an approved plan and what was done. Check each step of the plan against the actual state (read the files, look at the results) and report, for each step, whether it was done as planned, done differently, or not done, with the evidence.`,
    readOnly: true,
  },
} as const satisfies Record<string, AgentDefinition>;
