// The README's rewind example, run as written (a scripted model, a temporary folder for
// /srv/drafts, the default permission mode with the writes allowed by the host): the prompt's
// index taken as `agent.messages.length` before it is sent undoes exactly that prompt's changes.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { makeTempDir } from '../node/workspace-tools/helpers.js';

let drafts: string;
beforeAll(async () => {
  drafts = await makeTempDir('readme-rewind-');
});
afterAll(async () => {
  await fs.rm(drafts, { recursive: true, force: true });
});

describe('README: rewind example', () => {
  it('puts back the draft as the first prompt left it and removes what the second created; the model is told in the next user message', async () => {
    const model = scriptedModel([
      turn(toolCall('Write', { file_path: 'draft.md', content: '# Intro\n' })),
      'Wrote the introduction.',
      turn(toolCall('Edit', { file_path: 'draft.md', old_string: '# Intro\n', new_string: '# Intro\n\n## Pricing\n' }), toolCall('Write', { file_path: 'pricing.csv', content: 'plan,price\n' })),
      'Added pricing.',
      'Noted.',
    ]);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: drafts }), canUseTool: async () => ({ behavior: 'allow' }) });
    await agent.run('Write the introduction to draft.md').result;
    const beforePricing = agent.messages.length; // where the next prompt will go
    await agent.run('Now add a section on pricing').result;
    expect(await fs.readFile(path.join(drafts, 'draft.md'), 'utf8')).toBe('# Intro\n\n## Pricing\n');
    const { restored, skipped, interrupted } = await agent.rewindFiles({ toMessage: beforePricing });
    expect(interrupted).toBe(false);
    expect(skipped).toEqual([]);
    expect(restored.map((file) => [path.basename(file.path), file.action]).sort()).toEqual([
      ['draft.md', 'restored'],
      ['pricing.csv', 'deleted'],
    ]);
    expect(await fs.readFile(path.join(drafts, 'draft.md'), 'utf8')).toBe('# Intro\n');
    await expect(fs.access(path.join(drafts, 'pricing.csv'))).rejects.toThrow();
    // The conversation is not cut; the next user message tells the model.
    expect(agent.messages.length).toBeGreaterThan(beforePricing);
    await agent.run('Thanks').result;
    // The user message that carries the next prompt also carries the note (requests hold the history by reference).
    const prompt = model.requests.at(-1)!.request.messages.find((message) => message.role === 'user' && JSON.stringify(message.content).includes('Thanks'));
    const told = JSON.stringify(prompt);
    expect(told).toMatch(/rewound files/);
    expect(told).toContain('pricing.csv');
    await agent.close();
  });
});
