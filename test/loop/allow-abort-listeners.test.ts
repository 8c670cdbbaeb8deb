import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

// Node prints "MaxListenersExceededWarning: Possible EventTarget memory leak detected" when a
// signal gets more than its limit of listeners (10 by default).
let warnings: string[] = [];
const onWarning = (warning: Error) => {
  if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message);
};
beforeEach(() => {
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
});

/** Node emits a warning on a later tick. */
const warningsDelivered = () => new Promise((resolve) => setImmediate(resolve));

/** A read-only tool (so calls run in parallel) that listens to the run's signal `listeners` times while all its calls are running. */
function listeningTool(listeners: number, calls: number) {
  let started = 0;
  let release!: () => void;
  const allStarted = new Promise<void>((resolve) => (release = resolve));
  const tool = defineTool({
    name: 'fetch_page',
    description: 'Fetches a page.',
    inputSchema: z.object({ n: z.number() }),
    readOnly: true,
    execute: async ({ signal }) => {
      const handlers = Array.from({ length: listeners }, () => () => {});
      for (const handler of handlers) signal.addEventListener('abort', handler);
      if (++started === calls) release();
      // Whichever calls can run at once are running together now.
      await Promise.race([allStarted, new Promise((resolve) => setImmediate(resolve))]);
      await new Promise((resolve) => setImmediate(resolve));
      for (const handler of handlers) signal.removeEventListener('abort', handler);
      return 'page';
    },
  });
  return tool;
}

const calls = (count: number) => Array.from({ length: count }, (_, n) => toolCall('fetch_page', { n }));

describe("the run's abort signal and Node's listener limit", () => {
  it('takes a listener from each of maxToolConcurrency parallel calls without a leak warning', async () => {
    const agent = createAgent({ model: scriptedModel([turn(...calls(12)), 'Done.']), tools: [listeningTool(1, 12)] });
    expect((await agent.run('go').result).status).toBe('completed');
    await warningsDelivered();
    expect(warnings).toEqual([]);
  });

  it('takes two listeners per call too, and one from each of 40 calls when 40 may run at once', async () => {
    const two = createAgent({ model: scriptedModel([turn(...calls(10)), 'Done.']), tools: [listeningTool(2, 10)] });
    expect((await two.run('go').result).status).toBe('completed');
    const wide = createAgent({ model: scriptedModel([turn(...calls(40)), 'Done.']), tools: [listeningTool(1, 40)], maxToolConcurrency: 40 });
    expect((await wide.run('go').result).status).toBe('completed');
    await warningsDelivered();
    expect(warnings).toEqual([]);
  });

  it('still warns of listeners that pile up beyond what the calls can account for', async () => {
    const agent = createAgent({ model: scriptedModel([turn(...calls(2)), 'Done.']), tools: [listeningTool(40, 2)], maxToolConcurrency: 2 });
    expect((await agent.run('go').result).status).toBe('completed');
    await warningsDelivered();
    expect(warnings).toEqual([expect.stringMatching(/abort listeners added to \[AbortSignal\]\. MaxListeners is 14\./)]);
  });
});
