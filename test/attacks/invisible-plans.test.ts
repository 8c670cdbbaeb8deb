// Attack class: "A blank plan (whitespace or invisible characters only) is sent back to the model
// before any card is shown" — with the invisible characters the first attack did not try: the
// invisible operators (U+2061–U+2064), the soft hyphen, joiners, variation selectors, the Hangul
// fillers and the Braille blank, which a card renders as nothing at all.
import { describe, expect, it } from 'vitest';
import { createAgent, type AgentEvent, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const resultOf = (messages: readonly { role: string; content: unknown }[], id: string) =>
  messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as ToolResultBlock[]) : [])).find((block) => block.type === 'tool_result' && block.tool_use_id === id);

describe('attack: a plan of characters that render as nothing', () => {
  it.each([
    ['invisible operators', '\u2061\u2062\u2063\u2064'],
    ['soft hyphens', '\u00ad\u00ad\n\u00ad'],
    ['joiners and a grapheme joiner', '\u200c\u200d\u034f'],
    ['variation selectors', '\ufe0f\ufe00 \u{e0100}'],
    ['Hangul fillers', '\u3164\u115f\u1160\uffa0'],
    ['Braille blanks', '\u2800\u2800\n\u2800'],
    ['a Mongolian vowel separator and Khmer inherent vowels', '\u180e\u17b4\u17b5'],
    ['a line and a paragraph separator among no-break spaces', '\u2028\u00a0\u2029\u202f'],
  ])('of %s: refused before the host is asked, no card, nothing saved, still planning', async (_label, plan) => {
    let asked = 0;
    const events: AgentEvent[] = [];
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('ExitPlanMode', { plan }, 'toolu_plan')), 'Revising.']),
      permissionMode: 'plan',
      canUseTool: () => (asked++, { behavior: 'allow' }),
    });
    agent.on('plan-approval-request', (event) => events.push(event));
    await agent.run('plan it').result;
    expect(asked).toBe(0);
    expect(events).toEqual([]);
    expect(agent.plan).toBeUndefined();
    expect(agent.permissionMode).toBe('plan');
    expect(resultOf(agent.messages, 'toolu_plan')).toMatchObject({ is_error: true, content: expect.stringContaining('The plan is blank') });
  });

  it.each([
    ['an emoji with a variation selector', '\u2764\ufe0f'],
    ['an emoji sequence with joiners', '\u{1f469}\u200d\u{1f4bb}'],
    ['a Hangul syllable', '\ud55c'],
    ['a Braille letter', '\u2801'],
  ])('of %s is still a plan', async (_label, plan) => {
    const agent = createAgent({ model: scriptedModel([turn(toolCall('ExitPlanMode', { plan }, 'toolu_plan')), 'Done.']), permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }) });
    await agent.run('plan it').result;
    expect(agent.plan?.text).toBe(plan);
  });
});
