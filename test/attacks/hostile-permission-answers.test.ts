// Attack class: answers to a permission question that throw when they are read — a getter on
// `behavior`, `updatedInput` or `updatedPermissions` of canUseTool's answer, on a hook's
// `decision`, on a classifier's verdict or a tool check's `message`. A callback that throws denies
// its call and the run goes on; an answer that throws on reading must do the same, not end the
// run with the bare error of the getter (and the call must never run).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentOptions } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const throwing = (field: string, extra: Record<string, unknown> = {}) =>
  Object.defineProperty({ ...extra }, field, {
    enumerable: true,
    get() {
      throw new Error(`reading ${field} failed`);
    },
  });

const deny = () => ({ behavior: 'deny' as const, message: 'The user said no.' });

const cases: Array<[string, Partial<AgentOptions> & { check?: () => unknown }]> = [
  ['canUseTool: behavior', { canUseTool: () => throwing('behavior') as never }],
  ['canUseTool: updatedInput', { canUseTool: () => throwing('updatedInput', { behavior: 'allow' }) as never }],
  ['canUseTool: updatedPermissions', { canUseTool: () => throwing('updatedPermissions', { behavior: 'allow' }) as never }],
  ['PreToolUse hook: decision', { canUseTool: deny, hooks: { PreToolUse: [{ hook: () => throwing('decision') as never }] } }],
  ['PreToolUse hook: updatedInput', { canUseTool: deny, hooks: { PreToolUse: [{ hook: () => throwing('updatedInput', { decision: 'allow' }) as never }] } }],
  ['PermissionRequest hook: decision', { canUseTool: deny, hooks: { PermissionRequest: [{ hook: () => throwing('decision') as never }] } }],
  ['autoMode.classify: behavior', { permissionMode: 'auto', autoMode: { classify: () => throwing('behavior') as never }, canUseTool: deny }],
  ["the tool's check: message", { canUseTool: deny, check: () => throwing('message', { behavior: 'deny' }) }],
];

describe('attack: a permission answer that throws when read', () => {
  it.each(cases)('%s: the call is not run, the run completes', async (_name, { check, ...options }) => {
    const ran: string[] = [];
    const tool = defineTool({
      name: 'Publish',
      description: 'Publishes the draft.',
      inputSchema: z.object({ draft: z.string() }),
      ...(check ? { checkPermissions: check as never } : {}),
      execute: ({ input }) => {
        ran.push(input.draft);
        return 'published';
      },
    });
    const model = scriptedModel([turn(toolCall('Publish', { draft: 'a' }, 'toolu_publish')), 'Done.']);
    const agent = createAgent({ model, tools: [tool], ...options });
    const errors: unknown[] = [];
    agent.on('error', (event) => void errors.push(event));
    const result = await agent.run('publish it').result;
    expect(result.status).toBe('completed');
    expect(ran).toEqual([]);
    const answer = model.requests[1]!.messages.at(-1)!.content as Array<{ type: string; tool_use_id?: string; is_error?: boolean }>;
    expect(answer[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_publish', is_error: true });
    expect(errors.length).toBeGreaterThan(0);
    await agent.close();
  });
});
