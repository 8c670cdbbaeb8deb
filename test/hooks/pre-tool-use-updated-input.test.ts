// A PreToolUse hook's `updatedInput` is an edit the model is told of, as `canUseTool`'s is: the
// model otherwise believes its own input ran.
import { describe, expect, it } from 'vitest';
import { createAgent, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { echoTool } from '../helpers.js';

/** The tool result the model was sent for its one call. */
function resultSent(model: ReturnType<typeof scriptedModel>): string {
  const block = (model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[]).find((item) => item.type === 'tool_result')!;
  return typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
}

describe("a PreToolUse hook's updatedInput is told to the model", () => {
  it('the result says the input was changed, and what ran', async () => {
    const model = scriptedModel([turn(toolCall('echo', { text: 'rm -rf /' }, 'c1')), 'Done.']);
    const agent = createAgent({ model, tools: [echoTool], hooks: { PreToolUse: [{ hook: () => ({ updatedInput: { text: 'safe' } }) }] } });
    expect((await agent.run('Go.').result).status).toBe('completed');
    const sent = resultSent(model);
    expect(sent).toContain('echo: safe');
    expect(sent).toContain('your input was changed before this call ran');
    expect(sent).toContain('text: "rm -rf /" → "safe"');
  });

  it('an echo of the same input is no edit: no note', async () => {
    const model = scriptedModel([turn(toolCall('echo', { text: 'same' }, 'c1')), 'Done.']);
    const agent = createAgent({ model, tools: [echoTool], hooks: { PreToolUse: [{ hook: (input) => ({ updatedInput: { ...(input.toolInput as object) } }) }] } });
    await agent.run('Go.').result;
    expect(resultSent(model)).not.toContain('your input was changed');
  });

  it("a hook and canUseTool both editing: the note compares the model's input with what ran", async () => {
    const model = scriptedModel([turn(toolCall('echo', { text: 'model' }, 'c1')), 'Done.']);
    const notReadOnly = { ...echoTool, readOnly: false, name: 'echo' };
    const agent = createAgent({
      model,
      tools: [notReadOnly],
      hooks: { PreToolUse: [{ hook: () => ({ updatedInput: { text: 'hook' } }) }] },
      canUseTool: async (_name, input) => ({ behavior: 'allow', updatedInput: { text: `${(input as { text: string }).text}+host` } }),
    });
    await agent.run('Go.').result;
    const sent = resultSent(model);
    expect(sent).toContain('echo: hook+host');
    expect(sent).toContain('text: "model" → "hook+host"');
  });
});
