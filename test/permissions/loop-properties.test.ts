import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  defineTool,
  PERMISSION_MODES,
  type ContentBlock,
  type Model,
  type ModelRequest,
  type ModelStreamEvent,
  type PermissionMode,
  type PermissionResult,
} from 'agent-harness';

type ToolKey = 'look' | 'edit' | 'exec' | 'forbidden';

/** A model that plays whatever the test queued for the current run, recording serialized prefixes. */
function queueModel() {
  const queue: ContentBlock[][] = [];
  const prefixes: string[] = [];
  const model: Model = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'test',
    async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
      prefixes.push(JSON.stringify({ system: request.system, tools: request.tools }));
      const content = queue.shift() ?? [{ type: 'text', text: 'ok' }];
      const hasCalls = content.some((block) => block.type === 'tool_use');
      yield {
        type: 'response',
        response: { message: { role: 'assistant', content }, stopReason: hasCalls ? 'tool_use' : 'end_turn', usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } },
      };
    },
  };
  return { model, queue, prefixes };
}

const step = fc.record({
  mode: fc.constantFrom(...PERMISSION_MODES),
  calls: fc.array(fc.constantFrom<ToolKey>('look', 'edit', 'exec', 'forbidden'), { minLength: 1, maxLength: 4 }),
  answers: fc.array(fc.constantFrom<'allow' | 'deny' | 'defer'>('allow', 'deny', 'defer'), { minLength: 4, maxLength: 4 }),
  resolvePending: fc.boolean(),
  modeBeforeResolving: fc.option(fc.constantFrom(...PERMISSION_MODES), { nil: undefined }),
});

describe('permission invariants over random sessions', () => {
  it('plan mode never runs a non-read-only tool; dontAsk and bypassPermissions never ask; deny rules always win; the prefix never changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const executed: Array<{ tool: ToolKey; mode: PermissionMode }> = [];
        const asked: PermissionMode[] = [];
        const { model, queue, prefixes } = queueModel();
        const makeTool = (name: ToolKey, options: { readOnly?: boolean; kind?: 'edit' | 'execute' }) =>
          defineTool({
            name,
            description: name,
            inputSchema: z.object({}),
            ...options,
            execute: ({ agent }) => {
              executed.push({ tool: name, mode: agent.permissionMode });
              return 'done';
            },
          });
        let answers: Array<'allow' | 'deny' | 'defer'> = [];
        const agent = createAgent({
          model,
          tools: [makeTool('look', { readOnly: true }), makeTool('edit', { kind: 'edit' }), makeTool('exec', { kind: 'execute' }), makeTool('forbidden', { kind: 'execute' })],
          rules: { deny: ['forbidden'] },
          allowDangerouslySkipPermissions: true,
          canUseTool: (): PermissionResult => {
            asked.push(agent.permissionMode);
            const answer = answers.shift() ?? 'allow';
            return answer === 'deny' ? { behavior: 'deny', message: 'no' } : { behavior: answer };
          },
        });
        let id = 0;
        for (const { mode, calls, answers: stepAnswers, resolvePending, modeBeforeResolving } of steps) {
          agent.setPermissionMode(mode);
          answers = [...stepAnswers];
          queue.length = 0;
          queue.push(calls.map((name) => ({ type: 'tool_use', id: `toolu_${id++}`, name, input: {} })));
          let result = await agent.run('next').result;
          if (modeBeforeResolving) agent.setPermissionMode(modeBeforeResolving);
          while (resolvePending && result.status === 'awaiting-approval') {
            result = await agent.resolveApproval(result.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
          }
          expect(['completed', 'awaiting-approval']).toContain(result.status);
        }
        for (const run of executed) {
          if (run.mode === 'plan') expect(run.tool).toBe('look');
          expect(run.tool).not.toBe('forbidden');
        }
        expect(asked.filter((mode) => mode === 'dontAsk' || mode === 'bypassPermissions')).toEqual([]);
        expect(new Set(prefixes).size).toBe(1);
      }),
      { numRuns: 150, seed: 20261129 },
    );
  });
});
