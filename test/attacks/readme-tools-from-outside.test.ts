// The README's "Tools from outside" example, run as written (a scripted model for the API, local
// folders and a local notes server for /srv/…, an unreachable URL for the GitHub server).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent, deferTool } from 'agent-harness';
import { loadSkills, stdioMcpServer, workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { isGone } from '../process-helpers.js';
import { collect } from '../helpers.js';

const script = fileURLToPath(new URL('../mcp/fixtures/stdio-notes-server.ts', import.meta.url));
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'agent-harness-readme-outside-')));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('README: MCP servers, skills, deferred tools', () => {
  it('runs as written: ready reports each server, rules apply (allow mcp__notes, ask mcp__github__*, deny Skill(deploy)), close ends the stdio process', async () => {
    const project = join(scratch, 'project');
    const skills = join(scratch, 'skills');
    mkdirSync(project, { recursive: true });
    mkdirSync(join(skills, 'deploy'), { recursive: true });
    writeFileSync(join(skills, 'deploy', 'SKILL.md'), '---\nname: deploy\ndescription: Deploys the service.\n---\nRun the deploy script.\n');
    const [read, , , glob, grep, bash] = workspaceTools({ cwd: project, readOnlyDirectories: [skills] });
    const model = scriptedModel([
      turn(toolCall('mcp__notes__append_note', { text: 'milk' }, 'n1'), toolCall('mcp__notes__pid', {}, 'n2'), toolCall('Skill', { skill: 'deploy' }, 's1')),
      'Done.',
    ]);
    const agent = createAgent({
      model,
      tools: [read!, glob!, grep!, deferTool(bash!)],
      mcpServers: {
        github: { type: 'http', url: 'http://127.0.0.1:1/github', headers: { authorization: 'Bearer <token>' }, deferLoading: true },
        notes: stdioMcpServer({ command: process.execPath, args: ['--import', 'tsx', script] }),
      },
      skills: loadSkills(skills),
      rules: { allow: ['mcp__notes'], ask: ['mcp__github__*'], deny: ['Skill(deploy)'] },
    });
    let pid: number | undefined;
    try {
      await agent.ready;
      const byName = Object.fromEntries(agent.mcpServers.map((server) => [server.name, server]));
      expect(byName.notes!.status).toBe('connected');
      expect(byName.notes!.tools.length).toBeGreaterThan(0);
      expect(byName.github!.status).toBe('failed');
      const { events, result } = await collect(agent.run('note milk, then deploy'));
      expect(result.status).toBe('completed');
      const results = events.filter((event) => event.type === 'tool-result');
      // A refusal is reported when decided, before the allowed call's result.
      expect(results.map((event) => [event.toolName, event.isError]).sort()).toEqual([
        ['Skill', true],
        ['mcp__notes__append_note', false],
        ['mcp__notes__pid', false],
      ]);
      pid = Number(results.find((event) => event.toolName === 'mcp__notes__pid')!.content);
      expect(pid).toBeGreaterThan(0);
      // Bash was deferred: not sent in full; the model gets a tool search instead.
      const tools = model.requests[0]!.request.tools ?? [];
      const bashDefinition = tools.find((tool) => tool.name === 'Bash') as { defer_loading?: boolean } | undefined;
      expect(bashDefinition === undefined || bashDefinition.defer_loading === true).toBe(true);
      expect(JSON.stringify(model.requests[0]!.request.system)).toContain('deploy');
    } finally {
      await agent.close(); // closes the connections; stdio servers' processes end
      if (pid !== undefined) expect(isGone(pid)).toBe(true);
    }
  }, 60_000);
});
