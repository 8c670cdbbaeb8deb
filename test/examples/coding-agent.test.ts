import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
const workdirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => {
  for (const dir of workdirs) rmSync(dir, { recursive: true, force: true });
});

function newWorkdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-coding-agent-test-'));
  workdirs.push(dir);
  return dir;
}

/** The example as a child process, offline (no API key), with its output collected as it comes. */
function startExample(args: string[]) {
  const env = { ...process.env };
  delete env.ANTHROPIC_API_KEY;
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/coding-agent/main.ts', ...args], { cwd: root, env });
  children.push(child);
  child.stdin.end();
  let output = '';
  let waiter: { pattern: RegExp; resolve: () => void } | undefined;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
    if (waiter?.pattern.test(output)) waiter.resolve();
  });
  let errors = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (errors += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    exit,
    get output() {
      return output;
    },
    get errors() {
      return errors;
    },
    /** Resolves once stdout matches; rejects when the process ends first. */
    waitFor(pattern: RegExp): Promise<void> {
      if (pattern.test(output)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        waiter = { pattern, resolve };
        void exit.then((code) => reject(new Error(`The example exited (${code}) before printing ${pattern}:\n${output}\n${errors}`)));
      });
    },
  };
}

const planNameIn = (output: string) => /plan approved, saved as ([a-z-]+\.md)/.exec(output)?.[1];
const lastTodoHeader = (output: string) => [...output.matchAll(/Todos \((\d+)\/(\d+) done\)/g)].at(-1)?.[0];

function sampleTestsPass(workdir: string): boolean {
  const run = spawnSync(process.execPath, ['--test'], { cwd: workdir, encoding: 'utf8' });
  return run.status === 0 && /^# pass 5$/m.test(run.stdout);
}

interface Entry {
  kind: string;
  toolName?: string;
  toolUseId?: string;
  result?: { is_error?: boolean };
  message?: { role: string; content: Array<{ type: string; id?: string; name?: string; input?: { file_path?: string; command?: string }; tool_use_id?: string; is_error?: boolean }> | string };
}

function transcript(workdir: string): Entry[] {
  const file = join(workdir, '.agent-harness', 'sessions', 'coding-agent.jsonl');
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Entry);
}

/** Every tool call in the transcript, with how many results it got and whether the first one was an error. */
function toolCalls(entries: Entry[]) {
  const calls = entries.flatMap((entry) =>
    entry.kind === 'message' && entry.message?.role === 'assistant' && Array.isArray(entry.message.content)
      ? entry.message.content.filter((block) => block.type === 'tool_use')
      : [],
  );
  // A result is stored in the user message that carries it to the model (a batch's last answer
  // only there), and in a `tool-result` entry when it came before the batch's last answer.
  const answers = entries.flatMap((entry) =>
    entry.kind === 'message' && entry.message?.role === 'user' && Array.isArray(entry.message.content) ? entry.message.content.filter((block) => block.type === 'tool_result') : [],
  );
  const resultEntries = entries.filter((entry) => entry.kind === 'tool-result');
  return calls.map((call) => {
    const answered = answers.filter((block) => block.tool_use_id === call.id);
    const entered = resultEntries.filter((entry) => entry.toolUseId === call.id);
    return { id: call.id!, name: call.name!, input: call.input ?? {}, results: answered.length, resultEntries: entered.length, ok: answered[0]?.is_error !== true };
  });
}

describe('examples/coding-agent', () => {
  it('runs the whole flow offline: explore, plan card, approval, edits, tests pass, todos completed', async () => {
    const workdir = newWorkdir();
    const run = startExample(['--yes', '--workdir', workdir]);
    expect(await run.exit, run.output + run.errors).toBe(0);

    const output = run.output;
    expect(output).toContain('offline, scripted model');
    expect(output).toContain('┌─ Plan');
    expect(output).toMatch(/Bash \$ node --test: This call was not run because plan mode is active/);
    expect(output).toContain('⇄ mode: plan → acceptEdits (plan-approved)');
    const planName = planNameIn(output);
    expect(planName).toBeDefined();
    expect(existsSync(join(workdir, '.agent-harness', 'plans', planName!))).toBe(true);
    expect(lastTodoHeader(output)).toBe('Todos (3/3 done)');
    expect(output).toContain('tests: 5 passed, 0 failed');
    expect(output).toContain('── completed');
    expect(sampleTestsPass(workdir)).toBe(true);
    // The local MCP server (stdio, read-only tool in plan mode; a writing one asked) and the skill.
    expect(output).toMatch(/✓ mcp__project__conventions \{\}: Project: cart-totals/);
    expect(output).toMatch(/✓ Skill \{"skill":"regression-test"\}: <skill name="regression-test">/);
    expect(output).toContain('? permission needed: mcp__project__record_change');
    expect(readFileSync(join(workdir, 'CHANGES.md'), 'utf8')).toBe('- cartTotal multiplies each price by its quantity; regression test for a mixed cart.\n');
  });

  it('Ctrl-C after the plan is approved exits 130; a rerun resumes with the plan and todos and runs no tool twice', async () => {
    const workdir = newWorkdir();
    // --pause-at fix: the scripted model stops at the first edit until interrupted, so Ctrl-C lands at a known point.
    const first = startExample(['--yes', '--workdir', workdir, '--pause-at', 'fix']);
    await first.waitFor(/Todos \(0\/3 done\)[\s\S]*Fixing/);
    first.child.kill('SIGINT');
    expect(await first.exit, first.output + first.errors).toBe(130);
    expect(first.output).toContain('^C interrupting');
    expect(first.output).toContain('Run the same command again to resume.');
    const planName = planNameIn(first.output);
    expect(planName).toBeDefined();
    expect(readFileSync(join(workdir, 'src', 'cart.js'), 'utf8')).toContain('sum + item.price, 0');

    const second = startExample(['--yes', '--workdir', workdir]);
    expect(await second.exit, second.output + second.errors).toBe(0);
    const resumed = second.output;
    expect(resumed).toContain(`↻ resumed session "coding-agent" (last run: interrupted) · mode: acceptEdits · plan: ${planName}`);
    expect(resumed).toMatch(/resumed session[^\n]*\n {2}Todos \(0\/3 done\)\n {4}\[>\] Multiplying price by quantity in cartTotal…/);
    expect(resumed).toContain('Continue where you left off');
    expect(resumed).not.toContain('┌─ Plan');
    expect(lastTodoHeader(resumed)).toBe('Todos (3/3 done)');
    expect(sampleTestsPass(workdir)).toBe(true);

    // No tool ran twice: each call has one result, ids are unique, and each edit and the test run happened once.
    const both = first.output + resumed;
    expect(both.match(/→ Edit src\/cart\.js/g)).toHaveLength(1);
    const calls = toolCalls(transcript(workdir));
    expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
    for (const call of calls) expect(call.results, call.id).toBe(1);
    for (const call of calls) expect(call.resultEntries, call.id).toBeLessThanOrEqual(1);
    const executed = calls.filter((call) => call.ok);
    expect(executed.filter((call) => call.name === 'Edit').map((call) => call.input.file_path)).toEqual(['src/cart.js', 'test/cart.test.js']);
    expect(executed.filter((call) => call.name === 'Bash').map((call) => call.input.command)).toEqual(['node --test']);
    expect(executed.filter((call) => call.name === 'ExitPlanMode')).toHaveLength(1);
  });
});
