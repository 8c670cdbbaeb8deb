// Attack class: a model that writes bidi and invisible characters into what becomes the words of
// an "always allow" button. The README's card draws `context.suggestions[i].description` as the
// button, and promises that text of the model on the card cannot reorder or hide what the user
// approves. A suggestion's description quotes the model's command or path, so it must show those
// characters as `<U+202E>` as the display does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, describePermissionUpdate, type CanUseToolContext } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const HIDDEN = /[\u200b\u202a-\u202e\u2066-\u2069\u0000-\u0008]/u;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('attack: hidden characters in the words of an "always allow" button', () => {
  it('a Bash command and a path outside the workspace: descriptions and reasons show them as code points, on canUseTool and on the pending approval', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'attack-buttons-'));
    dirs.push(cwd);
    const calls = () =>
      turn(
        toolCall('Bash', { command: 'npm\u202e test', description: 'Run the tests' }, 'toolu_bash'),
        toolCall('Write', { file_path: `${tmpdir()}/out\u202eside\u200b/x.md`, content: 'x' }, 'toolu_write'),
      );
    const contexts: CanUseToolContext[] = [];
    const asking = createAgent({
      model: scriptedModel([calls(), 'ok']),
      tools: workspaceTools({ cwd }),
      cwd,
      canUseTool: (_name, _input, context) => (contexts.push(context), { behavior: 'deny', message: 'no' }),
    });
    await asking.run('go').result;
    const deferring = createAgent({ model: scriptedModel([calls()]), tools: workspaceTools({ cwd }), cwd });
    const { pendingApprovals } = await deferring.run('go').result;
    const descriptions = [...contexts, ...pendingApprovals].flatMap((asked) => asked.suggestions.map((suggestion) => suggestion.description!));
    expect(descriptions.length).toBeGreaterThanOrEqual(4);
    for (const description of descriptions) expect(description).not.toMatch(HIDDEN);
    expect(descriptions).toContain('Allow running commands that start with `npm<U+202E> test`');
    expect(descriptions.some((description) => description.includes('out<U+202E>side<U+200B>/'))).toBe(true);
    // The reason drawn on the card quotes the model's path or command too.
    const reasons = [...contexts, ...pendingApprovals].map((asked) => asked.reason as { message?: string });
    expect(reasons.some((reason) => reason.message?.includes('out<U+202E>side'))).toBe(true);
    for (const reason of reasons) expect(reason.message ?? '').not.toMatch(HIDDEN);
    // The rules themselves are kept as written: they must match the call.
    const bashRule = pendingApprovals[0]!.suggestions[0]!;
    expect(bashRule).toMatchObject({ type: 'addRules', rules: ['Bash(npm\u202e test:*)'] });
  });

  it('describePermissionUpdate does the same for a rule a host builds', () => {
    expect(describePermissionUpdate({ type: 'addRules', behavior: 'allow', rules: ['Read(docs/\u2066x\u2069.md)'], destination: 'session' })).toBe(
      'Allow reading the file docs/<U+2066>x<U+2069>.md',
    );
  });
});
