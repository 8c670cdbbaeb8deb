/**
 * The fleet's tools. Every execution is appended to a log file (one JSON line, written before the
 * tool returns), so the test and the benchmark can count executions against acknowledged results.
 */
import { appendFileSync } from 'node:fs';
import { defineTool, type Tool } from 'agent-harness';
import { z } from 'zod';

/** Options of {@link fleetTools}. */
export interface FleetToolsOptions {
  /** Where executions are logged (JSON lines: `{ toolUseId, name, n, pid }`). */
  logFile: string;
  /** Called when a tool starts, after it is logged (a test hangs a tool here to kill its worker mid-call). */
  onStart?: (call: { toolUseId: string; name: string; n: number }) => void | Promise<void>;
}

/** `step` (read-only: runs without asking) and `publish` (an edit: waits for approval). */
export function fleetTools(options: FleetToolsOptions): Tool[] {
  const run = async (name: string, toolUseId: string, n: number) => {
    appendFileSync(options.logFile, `${JSON.stringify({ toolUseId, name, n, pid: process.pid })}\n`);
    await options.onStart?.({ toolUseId, name, n });
    return `${name} ${n} done`;
  };
  return [
    defineTool({
      name: 'step',
      description: 'Carries out one step of the task.',
      inputSchema: z.object({ n: z.number().int() }),
      readOnly: true,
      execute: ({ input, toolUseId }) => run('step', toolUseId, input.n),
    }),
    defineTool({
      name: 'publish',
      description: 'Publishes the work so far (needs the user’s approval).',
      inputSchema: z.object({ n: z.number().int() }),
      kind: 'edit',
      execute: ({ input, toolUseId }) => run('publish', toolUseId, input.n),
    }),
  ];
}
