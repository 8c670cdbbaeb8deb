/**
 * A coding agent in native plan mode, with the workspace tools, on a copy of a small sample
 * project: it explores read-only, presents a plan, waits for your approval in the terminal, then
 * edits, runs the tests and ticks its todo list. A small local MCP server (built with the MCP SDK,
 * over stdio) tells it the project's conventions and records the change; a skill tells it how this
 * project writes regression tests. The session lives in a file store inside the
 * work directory: press Ctrl-C at any point and run the same command again to resume.
 * Offline (no ANTHROPIC_API_KEY) it runs on a scripted model; with a key, on the real API.
 *
 *   node --import tsx examples/coding-agent/main.ts [--yes] [--workdir <dir>] [--fresh]
 */
import { anthropicModel, createAgent, type Agent, type AgentRun, type RunResult } from 'agent-harness';
import { fileURLToPath } from 'node:url';
import { loadSkills, stdioMcpServer, workspaceTools } from 'agent-harness/node';
import { readCliOptions } from './cli-options.js';
import { offlineModel } from './offline-model.js';
import { askApproval } from './terminal-approvals.js';
import { attachTrace, createPrinter, printTodos } from './trace.js';
import { lastRunStatus, openWorkspace, WorkspaceError, type Workspace } from './workspace.js';

const SYSTEM = `You are a careful coding agent working on a small Node.js project (your working directory).
Explore before you change anything, starting with the project's conventions (mcp__project__conventions). Present your plan with ExitPlanMode. Once it is approved, track your steps with TodoWrite, keep edits minimal (Edit), and run the tests with \`node --test\` (Bash) until they pass. Be brief.`;
const TASK = 'The tests of this project fail. Find the bug and plan the fix; then fix it, add a regression test, and make `node --test` pass.';
const CONTINUE = 'We were interrupted. Continue where you left off: check your todo list and finish the task.';

const options = readCliOptions(process.argv.slice(2));
const print = createPrinter(process.stdout);
const online = Boolean(process.env.ANTHROPIC_API_KEY);

let workspace: Workspace;
try {
  workspace = await openWorkspace(options);
} catch (error) {
  if (!(error instanceof WorkspaceError)) throw error;
  console.error(error.message);
  process.exit(2);
}

const model = online ? anthropicModel({ model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-6' }) : offlineModel({ pauseAt: options.pauseAt });
const SKILLS = fileURLToPath(new URL('./skills/', import.meta.url));
const PROJECT_SERVER = fileURLToPath(new URL('./project-server.ts', import.meta.url));
const agent = createAgent({
  model,
  system: SYSTEM,
  // The skills' folders are readable (not writable) without asking: their instructions may point to files there.
  tools: workspaceTools({ cwd: workspace.dir, readOnlyDirectories: [SKILLS] }),
  skills: loadSkills(SKILLS),
  // The project's own MCP server, started as a child process; it ends with agent.close().
  mcpServers: { project: stdioMcpServer({ command: process.execPath, args: ['--import', 'tsx', PROJECT_SERVER, workspace.dir] }) },
  cwd: workspace.dir,
  // Native plan mode: only read-only calls run until the plan is approved.
  permissionMode: 'plan',
  store: workspace.store,
  planStore: workspace.planStore,
  // No canUseTool: every question becomes a pending approval, stored with the session, which
  // this script answers in the terminal (and asks again after a restart).
  ...(workspace.resumable ? { resume: options.session } : { sessionId: options.session }),
  maxTurns: 40,
});

// Ctrl-C: interrupt the run, close the session (its last entries are written, its lock released), exit 130.
const stopping = new AbortController();
let stopped: Promise<never> | undefined;
function stop(): Promise<never> {
  if (stopping.signal.aborted) process.exit(130); // a second Ctrl-C does not wait
  stopping.abort();
  print.line('^C interrupting…');
  agent.interrupt('Ctrl-C');
  stopped = (async () => {
    await agent.ready.catch(() => undefined);
    await agent.close({ reason: 'interrupted' });
    print.line(`Session "${options.session}" saved in ${workspace.sessionsDir}. Run the same command again to resume.`);
    process.exit(130);
  })();
  return stopped;
}
process.on('SIGINT', () => void stop());

/** What this process's runs used, all together. */
const totals = { turns: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };

async function settle(run: AgentRun): Promise<RunResult> {
  const result = await run.result;
  totals.turns += result.turns;
  totals.inputTokens += result.usage.inputTokens;
  totals.outputTokens += result.usage.outputTokens;
  totals.costUsd += result.costUsd ?? 0;
  return result;
}

/** Waits for a run, then answers pending approvals in the terminal until none is left. */
async function drive(run: AgentRun | undefined): Promise<RunResult | undefined> {
  let result = run ? await settle(run) : undefined;
  while (!stopping.signal.aborted && agent.pendingApprovals.length > 0) {
    const approval = agent.pendingApprovals[0]!;
    const decision = await askApproval(approval, { print, yes: options.yes, signal: stopping.signal, onCtrlC: () => void stop() });
    if (!decision || stopping.signal.aborted) break;
    result = await settle(agent.resolveApproval(approval.id, decision));
  }
  return result;
}

/** Starts the work, or resumes it from the store. Returns undefined when there is nothing to do. */
async function start(resumed: Agent): Promise<AgentRun | 'approvals' | undefined> {
  if (!workspace.resumable) return resumed.run(TASK);
  const status = await lastRunStatus(workspace.store, options.session);
  print.line(`↻ resumed session "${options.session}" (last run: ${status}) · mode: ${resumed.permissionMode} · plan: ${resumed.plan?.name ?? 'none yet'}`);
  if (resumed.todos.length > 0) printTodos(print, resumed.todos);
  if (resumed.pendingApprovals.length > 0) {
    print.line(`  ${resumed.pendingApprovals.length} approval(s) still waiting; asking again.`);
    return 'approvals';
  }
  if (status === 'none') return resumed.run(TASK);
  if (status === 'completed') {
    print.line('This session is complete. Pass --fresh to start over.');
    return undefined;
  }
  print.line(`→ sending: "${CONTINUE}"`);
  return resumed.run(CONTINUE);
}

print.line(`agent-harness coding agent — ${online ? `real API (${model.modelId})` : 'offline, scripted model (set ANTHROPIC_API_KEY for the real API)'}`);
print.line(`work directory: ${workspace.dir}`);
try {
  await agent.ready;
} catch (error) {
  console.error(`Could not open session "${options.session}": ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
attachTrace(agent, print);

const begun = await start(agent);
const result = begun === undefined ? undefined : await drive(begun === 'approvals' ? undefined : begun);
if (stopped || stopping.signal.aborted) await (stopped ?? new Promise<never>(() => undefined));

if (result) {
  print.line();
  print.line(`── ${result.status} · ${totals.turns} model turn(s) · ${totals.inputTokens} input / ${totals.outputTokens} output tokens${online ? ` · about $${totals.costUsd.toFixed(4)}` : ''}`);
  if (agent.plan) print.line(`plan: ${agent.plan.name} in ${workspace.plansDir}`);
  const done = agent.todos.filter((todo) => todo.status === 'completed').length;
  if (agent.todos.length > 0) print.line(`todos: ${done}/${agent.todos.length} done`);
  if (result.status === 'interrupted') print.line('Stopped. Run the same command again to continue.');
  if (result.status === 'completed') print.line(`Check it yourself: cd ${workspace.dir} && node --test`);
}
await agent.close();
// A plan rejected with "n" ends the run `interrupted` on purpose; errors and limits exit 1.
process.exitCode = !result || result.status === 'completed' || result.status === 'interrupted' ? 0 : 1;
