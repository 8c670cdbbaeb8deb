import { z } from 'zod';
import { defineTool } from 'agent-harness';

/** An edit-kind `write` tool that records the text of every call it runs (`runs`), for the exactly-once attacks. */
export function counting() {
  const runs: string[] = [];
  const write = defineTool({
    name: 'write',
    description: 'Writes.',
    inputSchema: z.object({ text: z.string() }),
    kind: 'edit',
    execute: ({ input }) => (runs.push(input.text), `wrote ${input.text}`),
  });
  return { runs, tools: [write] };
}
