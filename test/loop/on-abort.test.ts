import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { onAbort } from '../../src/loop/on-abort.js';

describe('onAbort', () => {
  it('holds one real listener however many wait, calls each once, and lets each leave', () => {
    const controller = new AbortController();
    let added = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      added++;
      add(...args);
    }) as AbortSignal['addEventListener'];
    const calls: number[] = [];
    const stops = Array.from({ length: 50 }, (_, index) => onAbort(controller.signal, () => calls.push(index)));
    expect(added).toBe(1);
    stops[3]!();
    controller.abort();
    controller.abort();
    expect(calls).toHaveLength(49);
    expect(calls).not.toContain(3);
    let late = 0;
    onAbort(controller.signal, () => late++);
    expect(late).toBe(1);
  });

  it('lets thirty calls run in parallel on one run without a MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const look = defineTool({ name: 'look', description: 'Looks.', inputSchema: z.object({ n: z.number() }), readOnly: true, execute: async ({ input }) => `seen ${input.n}` });
      const calls = Array.from({ length: 30 }, (_, n) => toolCall('look', { n }));
      const agent = createAgent({ model: scriptedModel([turn(...calls), 'done']), tools: [look], maxToolConcurrency: 30 });
      const result = await agent.run('look at everything').result;
      expect(result.status).toBe('completed');
      // Warnings are emitted on a later tick of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
