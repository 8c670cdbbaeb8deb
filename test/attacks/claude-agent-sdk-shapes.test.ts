// Attack class: a port from the Claude Agent SDK that keeps the SDK's shapes
// (docs/migrating-from-claude-agent-sdk.md). A hook that answers with the SDK's
// `hookSpecificOutput`, or with its `decision: 'block'`, must never be read as "no opinion": a
// PreToolUse deny written that way that let the call run would be a policy silently dropped.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, HookError, toolOutput, type HooksConfig, type PermissionRules } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

function setup(hooks: HooksConfig, script = [turn(toolCall('wipe', { target: 'db' }, 't1')), 'Done.'], rules: PermissionRules = { allow: ['wipe'] }) {
  const ran: string[] = [];
  const wipe = defineTool({
    name: 'wipe',
    description: 'Wipes a target.',
    inputSchema: z.object({ target: z.string() }),
    execute: ({ input }) => (ran.push(input.target), `wiped ${input.target}`),
  });
  const errors: string[] = [];
  const agent = createAgent({ model: scriptedModel(script), tools: [wipe], rules, hooks });
  agent.on('error', (event) => {
    if (HookError.isInstance(event.error)) errors.push(event.error.message);
  });
  return { agent, ran, errors: () => errors };
}

describe('attack: hooks answering in the Claude Agent SDK shape', () => {
  it("a PreToolUse hook's hookSpecificOutput deny does not let the call run, and the error names the plain form", async () => {
    const { agent, ran, errors } = setup({
      PreToolUse: [
        {
          matcher: 'wipe',
          hook: () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Not here.' } }) as never,
        },
      ],
    });
    await agent.run('Wipe the db.').result;
    expect(ran).toEqual([]);
    expect(errors().join('\n')).toMatch(/hookSpecificOutput.*\{ decision: 'deny', reason \}/);
  });

  it('a PreToolUse hook returning the SDK\'s top-level decision "block" does not let the call run', async () => {
    const { agent, ran, errors } = setup({ PreToolUse: [{ hook: () => ({ decision: 'block', reason: 'No.' }) as never }] });
    await agent.run('Wipe the db.').result;
    expect(ran).toEqual([]);
    expect(errors().join('\n')).toMatch(/"block"/);
  });

  it("a PermissionRequest hook's hookSpecificOutput allow does not answer the question: the call waits for the host", async () => {
    const { agent, ran, errors } = setup(
      { PermissionRequest: [{ hook: () => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }) as never }] },
      undefined,
      {},
    );
    const result = await agent.run('Wipe the db.').result;
    expect(result.status).toBe('awaiting-approval');
    expect(ran).toEqual([]);
    expect(errors().join('\n')).toMatch(/hookSpecificOutput.*\{ decision: 'allow' \}/);
  });

  it("a UserPromptSubmit hook's decision \"block\" is reported with the field to use (block: true)", async () => {
    const { agent, errors } = setup({ UserPromptSubmit: [{ hook: () => ({ decision: 'block', reason: 'No secrets.' }) as never }] }, ['Fine.']);
    await agent.run('my password is hunter2').result;
    expect(errors().join('\n')).toMatch(/decision "block".*block: true/);
  });

  it("a Stop hook's decision \"block\" is reported with the field to use (continue: true)", async () => {
    const { agent, errors } = setup({ Stop: [{ hook: ({ stopHookActive }) => (stopHookActive ? {} : ({ decision: 'block', reason: 'Check again.' } as never)) }] }, ['Fine.']);
    await agent.run('Go.').result;
    expect(errors().join('\n')).toMatch(/decision "block".*continue: true/);
  });
});

describe('attack: createAgent options moved across as written for the Claude Agent SDK', () => {
  const model = scriptedModel([]);
  it.each([
    ['tool names in `tools`', { tools: ['Read', 'Bash'] }, /`tools\[0\]`.*"Read".*workspaceTools\(\{ cwd \}\) from agent-harness\/node.*rules: \{ allow: \['Read'\] \}/],
    ['the claude_code tools preset', { tools: { type: 'preset', preset: 'claude_code' } }, /`tools`.*no Claude Code preset.*workspaceTools\(\{ cwd \}\)/],
    ['the claude_code system prompt preset', { system: { type: 'preset', preset: 'claude_code', append: 'Be brief.' } }, /`system`.*no Claude Code prompt to start from or append to/],
    ['a subagent model alias', { agents: { reviewer: { description: 'Reviews.', prompt: 'Review.', model: 'sonnet' } } }, /agents\.reviewer\.model.*'sonnet' is an alias.*anthropicModel\(\{ model: "claude-sonnet-4-6" \}\)/],
    ["a subagent model 'inherit'", { agents: { reviewer: { description: 'Reviews.', prompt: 'Review.', model: 'inherit' } } }, /agents\.reviewer\.model.*'inherit'\), leave `model` out\.$/],
    ['a model id string', { model: 'claude-sonnet-4-6' }, /wrap it: model: anthropicModel\(\{ model: "claude-sonnet-4-6" \}\)/],
    ['an MCP stdio server without a type', { mcpServers: { notes: { command: 'node', args: ['server.js'] } } }, /stdioMcpServer\(\{ command \}\) from agent-harness\/node/],
    ['hook entries with a `hooks` array', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [() => ({})] }] } }, /unknown key "hooks"; did you mean "hook"\?/],
  ])('%s fails with the fix named', (_name, options, message) => {
    expect(() => createAgent({ model, ...(options as object) } as never)).toThrow(message);
  });

  it('a system prompt string and real tools still pass', () => {
    expect(() => createAgent({ model, system: 'You help.', tools: [] })).not.toThrow();
  });
});

describe('attack: a canUseTool callback written for the Claude Agent SDK', () => {
  it('reads the documented context names (toolUseId, reason), not the SDK ones, and an SDK settings destination ends the run with a ConfigurationError', async () => {
    const seen: Record<string, unknown>[] = [];
    const wipe = defineTool({ name: 'wipe', description: 'Wipes.', inputSchema: z.object({ target: z.string() }), execute: () => 'wiped' });
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('wipe', { target: 'db' }, 't1')), 'Done.']),
      tools: [wipe],
      canUseTool: (_name, _input, context) => {
        seen.push({ ...context });
        return { behavior: 'allow', updatedPermissions: [{ type: 'addRules', behavior: 'allow', rules: [{ toolName: 'wipe' }], destination: 'localSettings' }] as never };
      },
    });
    const result = await agent.run('Wipe.').result;
    expect(seen[0]).toMatchObject({ toolUseId: 't1', reason: { type: 'default' } });
    expect(seen[0]).not.toHaveProperty('toolUseID');
    expect(seen[0]).not.toHaveProperty('decisionReason');
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/"localSettings"/);
    expect(agent.snapshot().sessionRules.allow).toEqual([]);
  });
});

it('the hook events the migration guide names are hook events here, and a Notification hook is refused with the list', () => {
  const model = scriptedModel([]);
  for (const event of ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact']) {
    expect(() => createAgent({ model, hooks: { [event]: [{ hook: () => ({}) }] } as HooksConfig }), event).not.toThrow();
  }
  expect(() => createAgent({ model, hooks: { Notification: [{ hook: () => ({}) }] } as never })).toThrow(/Notification is not a hook event; use one of .*PreToolUse/);
});

it('disallowedTools as a deny rule: the tool denied by name is still offered to the model, and its call is refused, not run (as the migration guide says)', async () => {
  const ran: string[] = [];
  const remove = defineTool({ name: 'delete_note', description: 'Deletes.', inputSchema: z.object({}), execute: () => (ran.push('delete'), 'deleted') });
  const model = scriptedModel([turn(toolCall('delete_note', {}, 'd1')), 'Done.']);
  const agent = createAgent({ model, tools: [remove], rules: { deny: ['delete_note'] }, permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true });
  await agent.run('Delete.').result;
  expect(JSON.stringify(model.requests[0])).toContain('"delete_note"');
  expect(ran).toEqual([]);
});

it("a PreToolUse hook's continue: false (the SDK's stop) does not let the call run, and says what to do instead", async () => {
  const ran: string[] = [];
  const wipe = defineTool({ name: 'wipe', description: 'Wipes.', inputSchema: z.object({}), execute: () => (ran.push('wipe'), 'wiped') });
  const errors: string[] = [];
  const agent = createAgent({
    model: scriptedModel([turn(toolCall('wipe', {}, 'w1')), 'Done.']),
    tools: [wipe],
    rules: { allow: ['wipe'] },
    hooks: { PreToolUse: [{ hook: () => ({ continue: false, stopReason: 'Budget spent.' }) as never }], Stop: [{ hook: () => ({ continue: false }) }] },
  });
  agent.on('error', (event) => errors.push(String(event.error)));
  await agent.run('Wipe.').result;
  expect(ran).toEqual([]);
  expect(errors).toHaveLength(1); // the Stop hook's continue: false is its no opinion, not an error
  expect(errors[0]).toMatch(/PreToolUse hook #0 returned continue: false.*deny the call.*agent\.interrupt\(\)/);
});

it("a tool handler moved across as written for the SDK: its { content, isError } reaches the model as JSON, not as an error; toolOutput(content, { isError }) is the error (as the migration guide says)", async () => {
  const sdkShaped = defineTool({ name: 'sdk_shaped', description: 'Fails the SDK way.', inputSchema: z.object({}), readOnly: true, execute: () => ({ content: [{ type: 'text', text: 'No such note.' }], isError: true }) });
  const ported = defineTool({ name: 'ported', description: 'Fails this way.', inputSchema: z.object({}), readOnly: true, execute: () => toolOutput([{ type: 'text', text: 'No such note.' }], { isError: true }) });
  const model = scriptedModel([turn(toolCall('sdk_shaped', {}, 'a1'), toolCall('ported', {}, 'b1')), 'Done.']);
  await createAgent({ model, tools: [sdkShaped, ported] }).run('Go.').result;
  const results = (model.requests[1]!.messages.at(-1)!.content as Array<{ tool_use_id: string; is_error?: boolean; content: unknown }>).filter((block) => 'tool_use_id' in block);
  const byId = Object.fromEntries(results.map((block) => [block.tool_use_id, block]));
  expect(byId.a1!.is_error).toBeFalsy();
  expect(JSON.stringify(byId.a1!.content)).toContain('isError');
  expect(byId.b1!.is_error).toBe(true);
  expect(JSON.stringify(byId.b1!.content)).toContain('No such note.');
});
