import { z } from 'zod';
import { defineTool, type AgentEvent, type AgentRun } from 'agent-harness';

/** A deferred promise a test resolves by hand (no timers). */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Collects every event of a run and its result. */
export async function collect(run: AgentRun) {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return { events, result: await run.result };
}

/** A read-only echo tool. */
export const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  inputSchema: z.object({ text: z.string() }),
  readOnly: true,
  execute: ({ input }) => `echo: ${input.text}`,
});

/** Resolves on the next macrotask turn; lets pending microtasks and I/O callbacks settle. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
