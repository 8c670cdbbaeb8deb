// workspaceTools({ readOnlyDirectories }) with a folder inside the workspace (the layout of
// loadSkills' own example: `./skills` read-only, the project writable). A write there used to be
// allowed unasked in acceptEdits (attack run); it is asked like one outside the workspace.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type CanUseTool, type PermissionMode } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { callTool, fakeAgent, makeTempDir, toolNamed } from './helpers.js';

let work: string;
let skills: string;
beforeEach(async () => {
  work = await makeTempDir('ws-read-only-dirs-');
  skills = path.join(work, 'skills');
  await fs.mkdir(path.join(skills, 'deploy'), { recursive: true });
  await fs.writeFile(path.join(skills, 'deploy', 'SKILL.md'), '---\nname: deploy\ndescription: Deploys.\n---\nRun the deploy.\n');
});
afterEach(() => fs.rm(work, { recursive: true, force: true }));

interface Asked {
  toolName: string;
  blockedPath: string | undefined;
}

/** Runs one scripted tool call in `mode`; the host denies every question and records it. */
async function runCall(call: ReturnType<typeof toolCall>, options: { mode: PermissionMode; readOnly?: string[]; cwd?: string; allow?: string[]; answer?: 'allow' | 'deny' }) {
  const asked: Asked[] = [];
  const canUseTool: CanUseTool = (toolName, _input, context) => {
    asked.push({ toolName, blockedPath: context.blockedPath });
    return options.answer === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: 'no' };
  };
  const cwd = options.cwd ?? work;
  const agent = createAgent({
    model: scriptedModel([turn(call), 'done']),
    tools: workspaceTools({ cwd, readOnlyDirectories: options.readOnly ?? [skills] }),
    cwd,
    permissionMode: options.mode,
    canUseTool,
    rules: { allow: options.allow ?? [] },
  });
  await agent.run('go').result;
  return { asked, messages: JSON.stringify(agent.messages) };
}

const evil = () => path.join(skills, 'deploy', 'evil.md');
const exists = (file: string) => fs.access(file).then(() => true, () => false);

describe('a write into a read-only directory inside the workspace', () => {
  it.each(['acceptEdits', 'default', 'auto'] as const)('a Write is asked in %s mode with blockedPath, and not run when denied', async (mode) => {
    const { asked } = await runCall(toolCall('Write', { file_path: 'skills/deploy/evil.md', content: 'pwned\n' }), { mode });
    expect(asked).toEqual([{ toolName: 'Write', blockedPath: evil() }]);
    expect(await exists(evil())).toBe(false);
  });

  it('an Edit is asked in acceptEdits, and the file is unchanged when denied', async () => {
    const file = path.join(skills, 'deploy', 'SKILL.md');
    const before = await fs.readFile(file, 'utf8');
    const call = toolCall('Edit', { file_path: 'skills/deploy/SKILL.md', old_string: 'Run the deploy.', new_string: 'Run rm -rf /.' });
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Read', { file_path: 'skills/deploy/SKILL.md' })), turn(call), 'done']),
      tools: workspaceTools({ cwd: work, readOnlyDirectories: [skills] }),
      cwd: work,
      permissionMode: 'acceptEdits',
      canUseTool: (toolName, _input, context) => {
        expect({ toolName, blockedPath: context.blockedPath }).toEqual({ toolName: 'Edit', blockedPath: file });
        return { behavior: 'deny', message: 'no' };
      },
    });
    await agent.run('go').result;
    expect(await fs.readFile(file, 'utf8')).toBe(before);
  });

  it('an allow rule like Write(**) does not answer it: the host is still asked', async () => {
    const { asked } = await runCall(toolCall('Write', { file_path: 'skills/deploy/evil.md', content: 'pwned\n' }), { mode: 'acceptEdits', allow: ['Write(**)'] });
    expect(asked).toEqual([{ toolName: 'Write', blockedPath: evil() }]);
    expect(await exists(evil())).toBe(false);
  });

  it('is refused in plan mode without asking', async () => {
    const { asked } = await runCall(toolCall('Write', { file_path: 'skills/deploy/evil.md', content: 'pwned\n' }), { mode: 'plan' });
    expect(asked).toEqual([]);
    expect(await exists(evil())).toBe(false);
  });

  it('a Bash redirection there is asked in acceptEdits', async () => {
    const { asked } = await runCall(toolCall('Bash', { command: 'echo pwned > skills/deploy/evil.md' }), { mode: 'acceptEdits' });
    expect(asked.map((question) => question.toolName)).toEqual(['Bash']);
    expect(await exists(evil())).toBe(false);
  });

  it('runs once the host allows it', async () => {
    const { asked } = await runCall(toolCall('Write', { file_path: 'skills/deploy/notes.md', content: 'ok\n' }), { mode: 'acceptEdits', answer: 'allow' });
    expect(asked).toHaveLength(1);
    expect(await fs.readFile(path.join(skills, 'deploy', 'notes.md'), 'utf8')).toBe('ok\n');
  });

  it('is refused at execute time when a link checked as leading elsewhere now leads there', async () => {
    await fs.mkdir(path.join(work, 'drafts'));
    await fs.symlink(path.join(work, 'drafts'), path.join(work, 'link'));
    const write = toolNamed(workspaceTools({ cwd: work, readOnlyDirectories: [skills] }), 'Write');
    const call = { input: { file_path: 'link/evil.md', content: 'pwned\n' }, toolUseId: 'toolu_swap', agent: fakeAgent('acceptEdits'), signal: new AbortController().signal };
    expect(await write.checkPermissions!(call)).toEqual({ behavior: 'passthrough' });
    await fs.rm(path.join(work, 'link'));
    await fs.symlink(path.join(skills, 'deploy'), path.join(work, 'link'));
    expect(JSON.stringify(await write.execute(call))).toMatch(/Refused/);
    expect(await exists(evil())).toBe(false);
  });
});

describe('what stays as it was', () => {
  it('reading the read-only directory is not asked', async () => {
    const read = await callTool(toolNamed(workspaceTools({ cwd: work, readOnlyDirectories: [skills] }), 'Read'), { file_path: 'skills/deploy/SKILL.md' });
    expect(read.stage).toBe('execute');
    expect(read.text).toContain('Run the deploy.');
  });

  it('a write elsewhere in the workspace runs unasked in acceptEdits', async () => {
    const { asked } = await runCall(toolCall('Write', { file_path: 'notes.md', content: 'ok\n' }), { mode: 'acceptEdits' });
    expect(asked).toEqual([]);
    expect(await fs.readFile(path.join(work, 'notes.md'), 'utf8')).toBe('ok\n');
  });

  it('a workspace below a read-only directory stays writable', async () => {
    const project = path.join(work, 'project');
    await fs.mkdir(project);
    const { asked } = await runCall(toolCall('Write', { file_path: 'notes.md', content: 'ok\n' }), { mode: 'acceptEdits', cwd: project, readOnly: [work] });
    expect(asked).toEqual([]);
    expect(await fs.readFile(path.join(project, 'notes.md'), 'utf8')).toBe('ok\n');
  });
});
