// What bash really does with directories (issue 10): a failed `cd` leaves the directory
// unchanged, a `cd` in a pipeline, a subshell or a background job does not reach the next
// command, `&&` / `||` follow the exit status. Plan mode must never read outside unasked.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../../src/agent/create-agent.js';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { scriptedModel, toolCall, turn } from '../../../src/testing/index.js';
import type { Tool } from '../../../src/tools/types.js';
import { makeTempDir, planModeDecision, toolNamed } from './helpers.js';

const SECRET = 'OUTSIDE-SECRET-7f3a';
let base: string;
let work: string;
let bash: Tool;

beforeAll(async () => {
  base = await makeTempDir('ws-cd-model-');
  work = path.join(base, 'work');
  await fs.mkdir(path.join(work, 'sub', 'deeper'), { recursive: true });
  await fs.writeFile(path.join(work, 'notes.md'), 'notes\n');
  await fs.writeFile(path.join(work, 'sub', 'inside.txt'), 'inside\n');
  await fs.writeFile(path.join(base, 'secret.txt'), `${SECRET}\n`);
  bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
});
afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const planDecision = (command: string) => planModeDecision(bash, command, work);

/** Runs the command with real bash in the workspace (only cd, cat, ls and echo are generated). */
function runBash(command: string): string {
  try {
    return execFileSync('/bin/bash', ['-c', command], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 5000 });
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? '');
  }
}

const mustAsk = [
  'cd nonexistent; cat ../secret.txt',
  'cd sub | cat ../secret.txt',
  'cd notes.md || cat ../secret.txt',
  'cd nonexistent || cat ../secret.txt',
  'cd notes.md; cat ../secret.txt',
  'cd sub & cat ../secret.txt',
  '(cd sub); cat ../secret.txt',
  '(cd sub) && cat ../secret.txt',
  'cd sub | cd deeper; cat ../secret.txt',
  'cd sub/deeper | cat ../../secret.txt',
  'cd missing && ls; cat ../secret.txt',
  'cd sub && cd missing; cat ../../secret.txt',
  'cd sub; cd missing; cat ../../secret.txt',
  'ls | cd sub; cat ../secret.txt',
  'cd sub && cd .. ; cat ../secret.txt',
  'cd sub; cd ..; cat ../secret.txt',
  'cd notes.md && ls || cat ../secret.txt',
  'cd sub || cd missing; cat ../../secret.txt',
  'cat ../secret.txt',
  'cd .. && cat secret.txt',
  'cd ..; cat secret.txt',
  'cd sub/../.. && cat secret.txt',
];

const mayRun = [
  'cd sub && cat ../notes.md',
  'cd sub; cat inside.txt',
  'cd sub/deeper && ls ../..',
  '(cd sub && cat inside.txt)',
  'cd nonexistent && cat ../secret.txt',
  'cd notes.md && cat ../secret.txt',
  'cd sub || cat ../secret.txt',
];

describe('Bash path analysis follows cd the way bash does', () => {
  it.each(mustAsk)('plan mode does not run %j unasked', async (command) => {
    expect(await planDecision(command)).not.toBe('allow');
  });

  it.each(mayRun)('plan mode still runs %j (it stays inside)', async (command) => {
    // Subshells are not classified read-only; the rest is allowed.
    const expected = command.startsWith('(') ? 'defer' : 'allow';
    const decision = await planDecision(command);
    expect(decision === 'allow' || decision === 'deny' || decision === 'defer').toBe(true);
    if (expected === 'allow') expect(decision).toBe('allow');
    expect(runBash(command)).not.toContain(SECRET);
  });

  it('the examples that must ask really do print the secret in bash (the attack is real)', () => {
    for (const command of ['cd nonexistent; cat ../secret.txt', 'cd sub | cat ../secret.txt', 'cd notes.md || cat ../secret.txt']) {
      expect(runBash(command), command).toContain(SECRET);
    }
  });

  it('property: whatever plan mode allows, real bash running it never prints the outside secret', async () => {
    // Reading ../secret.txt is harmless from sub/ (it names work/secret.txt, which does not exist)
    // and an outside read from the workspace root: exactly what a wrong idea of the directory misses.
    const directory = fc.constantFrom('sub', 'sub/deeper', 'missing', 'notes.md', 'sub/missing', 'sub/inside.txt', '.');
    const step = fc.oneof(
      directory.map((target) => `cd ${target}`),
      fc.constantFrom('ls', 'echo hi', 'cat ../secret.txt', 'cat ../../secret.txt', 'cat inside.txt', 'cat notes.md'),
    );
    const operator = fc.constantFrom(' ; ', ' && ', ' || ', ' | ', ' ; ', ' && ', ' || ', ' & ');
    const command = fc.tuple(fc.array(fc.tuple(step, operator), { minLength: 1, maxLength: 4 }), step).map(([pairs, last]) => pairs.map(([s, op]) => s + op).join('') + last);
    await fc.assert(
      fc.asyncProperty(command, async (line) => {
        if ((await planDecision(line)) !== 'allow') return true;
        return !runBash(line).includes(SECRET);
      }),
      { numRuns: 300 },
    );
  });

  it.each(['cd nonexistent; cat ../secret.txt', 'cd sub | cat ../secret.txt', 'cd notes.md || cat ../secret.txt'])(
    'end to end in plan mode, %j never shows the secret',
    async (command) => {
      const agent = createAgent({
        model: scriptedModel([turn(toolCall('Bash', { command }, 'b1')), 'done']),
        tools: workspaceTools({ cwd: work }),
        permissionMode: 'plan',
        cwd: work,
        canUseTool: async () => ({ behavior: 'deny', message: 'no' }),
      });
      await agent.run('look around').result;
      expect(JSON.stringify(agent.messages)).not.toContain(SECRET);
    },
  );
});
