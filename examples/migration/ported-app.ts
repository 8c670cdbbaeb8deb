/**
 * A Claude Agent SDK app ported to agent-harness (docs/migrating-from-claude-agent-sdk.md):
 * a canUseTool approval callback, a PreToolUse hook that blocks destructive commands, a
 * PostToolUse hook that logs, allowed and disallowed tools, a system prompt and a turn limit.
 * Runs offline on the scripted model; set ANTHROPIC_API_KEY to run it against the real API.
 *
 * Before (Claude Agent SDK):
 *
 *   for await (const message of query({
 *     prompt: 'Tidy the notes folder.',
 *     options: {
 *       systemPrompt: 'You keep a team's notes tidy.',
 *       allowedTools: ['read_note'],
 *       disallowedTools: ['delete_note'],
 *       permissionMode: 'default',
 *       maxTurns: 8,
 *       canUseTool: async (toolName, input, { signal, suggestions }) => …,
 *       hooks: { PreToolUse: [{ matcher: 'write_note', hooks: [async (input) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: '…' } })] }] },
 *     },
 *   })) { … }
 */
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool, type CanUseTool, type HooksConfig, type Model } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const notes = new Map<string, string>([['todo.md', '- call Sam'], ['old.md', 'stale']]);
export const log: string[] = [];

// `tool()` + `createSdkMcpServer()` in the Claude Agent SDK; here a tool is just a tool.
const readNote = defineTool({
  name: 'read_note',
  description: 'Reads a note.',
  inputSchema: z.object({ name: z.string() }),
  readOnly: true,
  execute: ({ input }) => notes.get(input.name) ?? `No note named ${input.name}.`,
});
const writeNote = defineTool({
  name: 'write_note',
  description: 'Writes a note.',
  inputSchema: z.object({ name: z.string(), text: z.string() }),
  kind: 'edit',
  execute: ({ input }) => (notes.set(input.name, input.text), `Wrote ${input.name}.`),
});
const deleteNote = defineTool({
  name: 'delete_note',
  description: 'Deletes a note.',
  inputSchema: z.object({ name: z.string() }),
  execute: ({ input }) => (notes.delete(input.name), `Deleted ${input.name}.`),
});

// canUseTool keeps its shape: (toolName, input, context) => allow / deny. `context.suggestions`
// are the ready-made "always allow" updates; `context.reason` says why it is asked.
const canUseTool: CanUseTool = async (toolName, input) => {
  log.push(`asked: ${toolName}`);
  if (toolName === 'write_note' && (input as { name: string }).name.endsWith('.md')) return { behavior: 'allow' };
  return { behavior: 'deny', message: 'The user declined.' };
};

// Hooks: one function per entry (`hook`), returning a plain decision instead of hookSpecificOutput.
const hooks: HooksConfig = {
  PreToolUse: [
    {
      matcher: 'write_note',
      hook: ({ toolInput }) => ((toolInput as { text: string }).text.includes('DROP TABLE') ? { decision: 'deny', reason: 'No SQL in notes.' } : {}),
    },
  ],
  PostToolUse: [{ hook: ({ toolName }) => void log.push(`ran: ${toolName}`) }],
};

const model: Model = process.env.ANTHROPIC_API_KEY
  ? anthropicModel({ model: 'claude-sonnet-4-6' })
  : scriptedModel([
      turn(toolCall('read_note', { name: 'todo.md' }), toolCall('delete_note', { name: 'old.md' })),
      turn(toolCall('write_note', { name: 'todo.md', text: '- call Sam\n- book the room' })),
      'The notes are tidy: I added a todo; deleting old.md is not allowed.',
    ]);

export const agent = createAgent({
  model,
  system: "You keep a team's notes tidy.", // systemPrompt
  tools: [readNote, writeNote, deleteNote],
  rules: { allow: ['read_note'], deny: ['delete_note'] }, // allowedTools / disallowedTools
  permissionMode: 'default',
  maxTurns: 8,
  canUseTool,
  hooks,
});

export async function main(): Promise<string> {
  // query() yields SDK messages; a run yields typed events and resolves to a result.
  const run = agent.run('Tidy the notes folder.');
  for await (const event of run) {
    if (event.type === 'permission-decision') log.push(`${event.toolName}: ${event.behavior} (${event.reason.type})`);
  }
  const result = await run.result;
  return `${result.status}: ${result.text}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await main());
  console.log(log.join('\n'));
}
