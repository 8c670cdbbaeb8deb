// The bare loop the overhead benchmarks compare the agent with (bench/README.md, issue 16).
import { z } from 'zod';

const inputSchema = z.object({});
const answerOk = () => 'ok';

/**
 * The bare loop: what a host would write by hand around the same model and the same zod tool —
 * stream the turn, keep the message, validate each call's input, run it, append the results.
 * No permissions, events, hooks, stores or limits. `execute` is the tool's function (it answers
 * `'ok'` unless given).
 */
export async function bareLoop(model, prompt, maxTurns, execute = answerOk) {
  const messages = [{ role: 'user', content: [{ type: 'text', text: prompt }] }];
  const request = { messages, tools: [{ name: 'trivial', description: 'Returns ok at once.', input_schema: { type: 'object' } }] };
  for (let turn = 0; turn < maxTurns; turn++) {
    let response;
    for await (const event of model.stream(request)) if (event.type === 'response') response = event.response;
    messages.push(response.message);
    const results = [];
    for (const block of response.message.content) {
      if (block.type !== 'tool_use') continue;
      const parsed = inputSchema.safeParse(block.input);
      const content = parsed.success ? await execute(parsed.data) : `Invalid input: ${parsed.error.message}`;
      results.push({ type: 'tool_result', tool_use_id: block.id, content });
    }
    if (results.length === 0) return { messages, turns: turn + 1 };
    messages.push({ role: 'user', content: results });
  }
  return { messages, turns: maxTurns };
}

