/**
 * What to write instead of the Claude Agent SDK's `query()` options, for hosts porting an app:
 * shown when one of these names is passed to `createAgent`.
 */
export const CLAUDE_AGENT_SDK_HINTS: Readonly<Record<string, string>> = {
  systemPrompt: 'did you mean `system`? (The Claude Agent SDK calls it `systemPrompt`; here it is a plain string: system: "You are …".)',
  customSystemPrompt: 'did you mean `system`? (A plain string: system: "You are …".)',
  appendSystemPrompt: 'put the whole prompt in `system` (there is no default prompt to append to).',
  allowedTools:
    "the Claude Agent SDK's `allowedTools` is an allow rule list here: rules: { allow: ['Read', 'Bash(npm test:*)'] }. To leave a tool out altogether, do not pass it in `tools`.",
  disallowedTools: "the Claude Agent SDK's `disallowedTools` is a deny rule list here: rules: { deny: ['Bash(rm:*)', 'WebFetch'] } (deny rules hold in every mode).",
  permissionPromptToolName: 'pass a `canUseTool: (toolName, input, context) => ({ behavior: "allow" })` callback instead (or leave it out to park questions as pending approvals).',
  maxThinkingTokens: "thinking is the model's setting: anthropicModel({ model, thinking: { type: 'enabled', budget_tokens: 4096 } }).",
  fallbackModel: 'pass one `model`; retries are the model adapter\'s (anthropicModel({ model, maxRetries })).',
  abortController: 'pass a signal per run: agent.run(prompt, { signal }), or call agent.interrupt().',
  continue: 'resume a session explicitly: createAgent({ store, resume: sessionId }) or createAgent({ resume: snapshot }).',
  forkSession: 'call `await agent.fork()` (or forkSession({ store, sessionId })) instead.',
  additionalDirectories: "workspace directories belong to the workspace tools: workspaceTools({ cwd, additionalDirectories: ['/srv/shared'] }) from agent-harness/node.",
  includePartialMessages: 'text arrives as `text-delta` events anyway: iterate the run or use agent.on("text-delta", …).',
  env: 'the agent runs in your process; the Bash tool takes workspaceTools({ cwd, env }).',
  executable: 'agent-harness runs in your process: there is no CLI to point at.',
  executableArgs: 'agent-harness runs in your process: there is no CLI to point at.',
  pathToClaudeCodeExecutable: 'agent-harness runs in your process: there is no CLI to point at.',
  extraArgs: 'agent-harness runs in your process: there is no CLI to pass arguments to.',
  stderr: 'agent-harness runs in your process: errors arrive as `error` events and in the run result.',
  outputFormat: 'structured output is per run: agent.run(prompt, { outputSchema: zodSchema }) and then result.output.',
  enableFileCheckpointing: 'the workspace tools keep file checkpoints by default (workspaceTools({ cwd, checkpoints })); undo with agent.rewindFiles({ toMessage }).',
  settingSources: 'agent-harness reads no settings files: pass `rules`, `hooks` and `permissionMode` here.',
};
