// Attack class: README, Hooks: the snippet's UserPromptSubmit hook blocks a prompt ("Nothing was
// sent to the model and the history is unchanged"). When that prompt was the session's first, the
// SessionStart hooks had fired for it and their context was dropped with it: the next prompt,
// which did reach the model, never carried it (the hooks do not fire twice). It now goes with the
// next prompt that is let through, and the SessionStart hooks still run once.
import { describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';

describe('attack: the first prompt blocked by a UserPromptSubmit hook', () => {
  it('the SessionStart context reaches the model with the next prompt let through, once; the blocked prompt never does', async () => {
    const model = scriptedModel(['ok', 'ok again']);
    let starts = 0;
    const agent = createAgent({
      model,
      hooks: {
        SessionStart: [{ hook: () => (starts++, { additionalContext: 'Project conventions: tabs.' }) }],
        UserPromptSubmit: [{ hook: ({ prompt }) => (prompt.includes('password') ? { block: true, reason: 'no secrets' } : { additionalContext: `Checked: ${prompt}` }) }],
      },
    });
    expect((await agent.run('my password is x').result).status).toBe('error');
    expect((await agent.run('still my password').result).status).toBe('error');
    expect(agent.messages).toEqual([]);
    expect((await agent.run('hello').result).status).toBe('completed');
    await agent.run('and then').result;
    expect(starts).toBe(1);
    const sent = JSON.stringify(model.requests[0]!.messages);
    expect(sent).toContain('Project conventions: tabs.');
    expect(sent).toContain('Checked: hello');
    expect(sent).not.toContain('password');
    // Once: the next prompt does not carry it again.
    expect(JSON.stringify(model.requests[1]!.messages).split('Project conventions').length - 1).toBe(1);
  });
});
