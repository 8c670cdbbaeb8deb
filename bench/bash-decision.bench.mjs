// How long the permission pipeline takes to decide one Bash call when Edit/Write deny and ask
// rules are set, and how often it works out what the command writes (`bashWriteTargets`: a parse
// and a stat per path). Reads the sources through tsx, so no build is needed:
//   node --import tsx bench/bash-decision.bench.mjs [repository root]
// The root lets an A/B run against another checkout of src/ (e.g. `git archive` of a commit).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const { workspaceTools } = await import(path.join(root, 'src/node/workspace-tools.ts'));
const { decidePermissionNow } = await import(path.join(root, 'src/permissions/decide-permission.ts'));
const { createRuleSet } = await import(path.join(root, 'src/permissions/rule-set.ts'));

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bash-decision-')));
fs.mkdirSync(path.join(work, 'secrets'));
fs.mkdirSync(path.join(work, 'src'));
const bash = workspaceTools({ cwd: work }).find((tool) => tool.name === 'Bash');
let calls = 0;
const tool = { ...bash, ruleTarget: { ...bash.ruleTarget, writes: (input) => (calls++, bash.ruleTarget.writes(input)) } };
const rules = createRuleSet({ deny: ['Edit(secrets/**)', 'Bash(curl:*)'], ask: ['Write(build/**)'], allow: ['Bash(npm test:*)', 'Bash(cp:*)', 'Bash(mkdir:*)'] });
const agent = (mode) => ({ sessionId: 'bench', agentId: undefined, permissionMode: mode, toolState: { get: () => undefined, set: () => {} } });
const commands = [
  'cp src/a.ts src/b.ts && mkdir -p src/out && cp src/b.ts src/out/c.ts',
  "cd src && sed -i 's/a/b/' a.ts b.ts && bash -c 'echo x > out.txt' && tee log.txt < a.ts",
  'npm test -- --watch=false',
];
const rounds = Number(process.env.ROUNDS ?? 2000);
for (const mode of ['default', 'bypassPermissions']) {
  for (const command of commands) {
    const args = { tool, toolUseId: 't', rawInput: { command }, mode, rules, signal: new AbortController().signal, agent: agent(mode), emit: () => {}, cwd: work, canUseTool: () => ({ behavior: 'allow' }) };
    for (let index = 0; index < 200; index++) await decidePermissionNow(args);
    calls = 0;
    const start = performance.now();
    for (let index = 0; index < rounds; index++) await decidePermissionNow(args);
    const microseconds = ((performance.now() - start) / rounds) * 1000;
    const { decision } = await decidePermissionNow(args);
    console.log(`${mode.padEnd(18)} ${microseconds.toFixed(0).padStart(6)} µs/decision  writes worked out ${(calls / rounds).toFixed(1)}x  → ${decision.behavior}  ${command.slice(0, 48)}`);
  }
}
fs.rmSync(work, { recursive: true, force: true });
