// Attack class: an `Edit(...)` deny rule dodged by a well-known program that writes the file an
// option or operand names, outside the list the Bash analysis knew: `git clone … secrets/x`,
// `openssl … -out secrets/k`, `gpg -o secrets/k`, `ssh-keygen -f secrets/k`, `script secrets/k`,
// `sqlite3 secrets/db`. The README promises that Edit deny and ask rules hold for the written
// operands of well-known writing commands, in every mode; these ran unasked in bypassPermissions.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent, type PermissionDecision } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const cwd = mkdtempSync(join(tmpdir(), 'attack-option-writers-'));
mkdirSync(join(cwd, 'secrets'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function decisions(commands: readonly string[]): Promise<Record<string, PermissionDecision['behavior']>> {
  const tools = workspaceTools({ cwd }).map((tool) => (tool.name === 'Bash' ? { ...tool, execute: () => 'not run in this test' } : tool));
  const model = scriptedModel([turn(...commands.map((command, index) => toolCall('Bash', { command }, `toolu_${index}`))), 'ok']);
  const agent = createAgent({ model, tools, cwd, rules: { deny: ['Edit(secrets/**)'] }, permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true });
  const decided: Record<string, PermissionDecision['behavior']> = {};
  agent.on('permission-decision', (event) => void (decided[commands[Number(event.toolUseId.slice('toolu_'.length))]!] = event.behavior));
  await agent.run('go').result;
  await agent.close();
  return decided;
}

describe('attack: a program writes into what an Edit deny rule protects', () => {
  it('the written file is named by an option or an operand: denied, in bypassPermissions', async () => {
    const writing = [
      'git clone https://example.com/r.git secrets/r',
      'git clone --separate-git-dir=secrets/g https://example.com/r.git r',
      'git init secrets/repo',
      'git worktree add secrets/w',
      'openssl rand -out secrets/k 32',
      'openssl genrsa -out secrets/key.pem 2048',
      'openssl req -new -keyout secrets/key.pem -out csr.pem',
      'gpg -o secrets/k -d x.gpg',
      'gpg --output=secrets/k -d x.gpg',
      'ssh-keygen -f secrets/id -N ""',
      'script secrets/typescript',
      'sqlite3 secrets/app.db "create table t(a)"',
    ];
    expect(await decisions(writing)).toEqual(Object.fromEntries(writing.map((command) => [command, 'deny'])));
  });

  it('a clone named after its repository is asked (the folder cannot be named before it runs); other targets run', async () => {
    const commands = ['git clone https://example.com/secrets.git', 'git clone https://example.com/r.git lib/r', 'openssl rand -out out.bin 8', 'ssh-keygen -l -f secrets/id.pub', 'sqlite3 app.db "select 1"'];
    expect(await decisions(commands)).toEqual({
      'git clone https://example.com/secrets.git': 'defer',
      'git clone https://example.com/r.git lib/r': 'allow',
      'openssl rand -out out.bin 8': 'allow',
      'ssh-keygen -l -f secrets/id.pub': 'allow',
      'sqlite3 app.db "select 1"': 'allow',
    });
  });
});
