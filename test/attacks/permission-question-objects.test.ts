// Attack class: host code that changes, in place, the parts of a permission question it is handed
// besides the input — `suggestions`, `reason` and `display` — in a `PermissionRequest` hook, a
// `permission-request` listener or `canUseTool`. Each of them gets the question to read; what must
// hold: a change in place reaches none of the others, and the pending approval the session keeps
// (what the card offered, why it was asked) is the runtime's own.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type PermissionUpdate } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const write = defineTool({
  name: 'write',
  description: 'Writes a file.',
  inputSchema: z.object({ path: z.string(), text: z.string() }),
  kind: 'edit',
  display: ({ input }) => ({ title: `Write ${input.path}`, summary: 'A new file.', body: input.text, bodyFormat: 'text' }),
  execute: () => 'wrote',
});

/** Changes everything of a question it can reach, in place. */
function tamper(question: { suggestions?: PermissionUpdate[]; reason?: unknown; display?: unknown }): void {
  question.suggestions?.push({ type: 'addRules', behavior: 'allow', rules: [{ toolName: 'Bash' }], destination: 'session' });
  const first = question.suggestions?.[0];
  if (first?.type === 'addRules') first.rules.push({ toolName: 'Bash' });
  if (question.reason && typeof question.reason === 'object') (question.reason as { type: string }).type = 'tampered';
  if (question.display && typeof question.display === 'object') (question.display as { title: string }).title = 'tampered';
}

describe('attack: a permission question changed in place by the host', () => {
  it('a hook, two listeners and canUseTool each see the runtime\'s question, and the pending approval keeps it', async () => {
    const seen: string[] = [];
    const snapshot = (question: { suggestions?: unknown; reason?: unknown; display?: unknown }) => JSON.stringify([question.suggestions, question.reason, question.display]);
    const agent = createAgent({
      model: scriptedModel([turn('Writing.', toolCall('write', { path: 'notes.md', text: 'hi' }, 'toolu_w'))]),
      tools: [write],
      hooks: {
        PermissionRequest: [{ hook: (input) => (seen.push(`hook ${snapshot(input)}`), tamper(input), {}) }],
      },
      canUseTool: (_name, _input, context) => {
        seen.push(`canUseTool ${snapshot(context)}`);
        tamper(context as never);
        return { behavior: 'defer' };
      },
    });
    agent.on('permission-request', (event) => {
      seen.push(`first ${snapshot(event)}`);
      tamper(event);
    });
    agent.on('permission-request', (event) => void seen.push(`second ${snapshot(event)}`));
    const result = await agent.run('Write notes.').result;
    expect(result.status).toBe('awaiting-approval');
    const [pending] = agent.pendingApprovals;
    const kept = JSON.stringify([pending!.suggestions, pending!.reason, pending!.display]);
    expect(kept).not.toContain('tampered');
    expect(pending!.suggestions.length).toBeGreaterThan(0);
    expect(JSON.stringify(pending!.suggestions)).not.toContain('"Bash"');
    // Every reader saw the question as the runtime asked it.
    // (A hook's input has no card: its display is null.)
    const withoutDisplay = JSON.stringify([pending!.suggestions, pending!.reason, null]);
    expect(seen).toEqual([`hook ${withoutDisplay}`, `first ${kept}`, `second ${kept}`, `canUseTool ${kept}`]);
    // The stored approval is the runtime's too.
    const resumed = createAgent({ model: scriptedModel([]), tools: [write], resume: agent.snapshot() });
    await resumed.ready;
    expect(JSON.stringify([resumed.pendingApprovals[0]!.suggestions, resumed.pendingApprovals[0]!.reason, resumed.pendingApprovals[0]!.display])).toBe(kept);
  });
});
