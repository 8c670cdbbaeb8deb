// Attack class: a hostile model. Whatever the model sends back — blank or empty text, duplicate,
// empty or odd tool_use ids, unknown tools, non-object inputs, stray thinking blocks, lying stop
// reasons — every request the agent sends afterwards must pass the Messages API's own rules
// (validateMessagesRequest), the snapshot must serialize, and no call may run twice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type ContentBlock } from 'agent-harness';
import { scriptedModel, turn, validateMessagesRequest, type ScriptItem } from 'agent-harness/testing';

function fixture() {
  const runs: string[] = [];
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes.',
    inputSchema: z.object({ text: z.string() }),
    readOnly: true,
    execute: ({ input, toolUseId }) => (runs.push(`echo:${toolUseId}`), `echo ${input.text}`),
  });
  const write = defineTool({
    name: 'write',
    description: 'Writes.',
    inputSchema: z.object({ text: z.string() }),
    kind: 'edit',
    execute: ({ input, toolUseId }) => (runs.push(`write:${toolUseId}`), `wrote ${input.text}`),
  });
  return { runs, tools: [echo, write] };
}

const blankTexts = ['', ' ', '\n', '\t \n', '\u00a0', '  trailing  ', 'ok'];
const ids = ['toolu_a', 'toolu_b', 'toolu_a', '', ' ', 'id with spaces', 'toolu_' + 'x'.repeat(300), '../../etc', 'toolu_\u0000'];
const names = ['echo', 'write', 'nope', '', 'Echo', 'echo '];
const inputs: unknown[] = [{ text: 'a' }, {}, { text: 1 }, 'a string', null, [1, 2], 42, { text: 'a', extra: true }];

const blockArbitrary: fc.Arbitrary<ContentBlock> = fc.oneof(
  fc.constantFrom(...blankTexts).map((text) => ({ type: 'text', text }) as ContentBlock),
  fc.record({ id: fc.constantFrom(...ids), name: fc.constantFrom(...names), input: fc.constantFrom(...inputs) }).map(
    ({ id, name, input }) => ({ type: 'tool_use', id, name, input }) as ContentBlock,
  ),
  fc.constantFrom('', 'thinking it over').map((thinking) => ({ type: 'thinking', thinking, signature: 'sig' }) as ContentBlock),
);
const stopReasons = fc.constantFrom(undefined, 'end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal') as fc.Arbitrary<string | undefined>;
const hostileTurn = fc.record({ blocks: fc.array(blockArbitrary, { maxLength: 5 }), stopReason: stopReasons });

function scriptOf(turns: Array<{ blocks: ContentBlock[]; stopReason: string | undefined }>): ScriptItem[] {
  return [...turns.map(({ blocks, stopReason }) => turn(...blocks, ...(stopReason ? [{ stopReason: stopReason as never }] : []))), ...Array.from({ length: 12 }, () => 'fine')];
}

/** Every request the model received obeys the API's rules, and so does the history plus a new prompt. */
function expectValidRequests(model: ReturnType<typeof scriptedModel>, messages: readonly unknown[]) {
  for (const [index, recorded] of model.requests.entries()) {
    expect(validateMessagesRequest(recorded.messages), `request ${index}: ${JSON.stringify(recorded.messages).slice(0, 2000)}`).toBeUndefined();
  }
  void messages;
}

async function play(turns: Array<{ blocks: ContentBlock[]; stopReason: string | undefined }>, options: { allow: boolean }) {
  const { runs, tools } = fixture();
  const model = scriptedModel(scriptOf(turns));
  const agent = createAgent({ model, tools, maxTurns: 8, ...(options.allow ? { canUseTool: () => ({ behavior: 'allow' as const }) } : {}) });
  const first = await agent.run('start').result;
  expect(() => JSON.stringify(agent.snapshot())).not.toThrow();
  // Answer whatever waits (allow) so the turn goes on, then a second prompt.
  for (let guard = 0; guard < 10 && agent.pendingApprovals.length > 0; guard++) {
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
  }
  void first;
  await agent.run('again').result;
  expectValidRequests(model, agent.messages);
  expect(() => JSON.stringify(agent.snapshot())).not.toThrow();
  // Each distinct runnable call ran at most once.
  expect(new Set(runs).size, runs.join(',')).toBe(runs.length);
  return { agent, runs, model };
}

describe('attack: a hostile model never wedges the history', () => {
  it.each([
    ['a whitespace-only text block before a tool call', [turn(' ', { type: 'tool_use', id: 't1', name: 'echo', input: { text: 'a' } } as ContentBlock)]],
    ['a whitespace-only text block alone', [turn('\n\n')]],
    ['an empty text block alone', [turn('')]],
    ['no content at all', [turn()]],
    ['an empty content with stop_reason tool_use', [turn({ stopReason: 'tool_use' })]],
    ['a tool call with stop_reason end_turn', [turn({ type: 'tool_use', id: 't1', name: 'echo', input: { text: 'a' } } as ContentBlock, { stopReason: 'end_turn' })]],
    ['a tool call cut by max_tokens', [turn({ type: 'tool_use', id: 't1', name: 'echo', input: { text: 'a' } } as ContentBlock, { stopReason: 'max_tokens' })]],
    ['trailing whitespace after a tool call', [turn({ type: 'tool_use', id: 't1', name: 'echo', input: { text: 'a' } } as ContentBlock, '   ')]],
    ['text ending in whitespace, end_turn', [turn('done.  \n')]],
    ['two duplicate tool ids, both runnable', [turn({ type: 'tool_use', id: 'dup', name: 'echo', input: { text: 'a' } } as ContentBlock, { type: 'tool_use', id: 'dup', name: 'echo', input: { text: 'b' } } as ContentBlock)]],
    ['three duplicate ids across tools', [turn(...['echo', 'write', 'echo'].map((name) => ({ type: 'tool_use', id: 'same', name, input: { text: name } }) as ContentBlock))]],
    ['an empty tool id', [turn({ type: 'tool_use', id: '', name: 'echo', input: { text: 'a' } } as ContentBlock)]],
    ['a tool id with spaces', [turn({ type: 'tool_use', id: 'a b', name: 'echo', input: { text: 'a' } } as ContentBlock)]],
    ['a tool id reused from an earlier turn', [turn({ type: 'tool_use', id: 'again', name: 'echo', input: { text: 'a' } } as ContentBlock), turn({ type: 'tool_use', id: 'again', name: 'echo', input: { text: 'b' } } as ContentBlock)]],
    ['an unknown tool', [turn({ type: 'tool_use', id: 't1', name: 'rm_everything', input: {} } as ContentBlock)]],
    ['a string as tool input', [turn({ type: 'tool_use', id: 't1', name: 'echo', input: 'text' } as ContentBlock)]],
    ['null as tool input', [turn({ type: 'tool_use', id: 't1', name: 'echo', input: null } as ContentBlock)]],
    ['an array as tool input', [turn({ type: 'tool_use', id: 't1', name: 'echo', input: ['a'] } as ContentBlock)]],
    ['an empty thinking block', [turn({ type: 'thinking', thinking: '', signature: 'x' } as ContentBlock, 'hi')]],
    ['only a thinking block', [turn({ type: 'thinking', thinking: 'hmm', signature: 'x' } as ContentBlock)]],
    ['an unknown block type', [turn({ type: 'mystery', data: 1 } as unknown as ContentBlock, 'hi')]],
  ])('%s', async (_name, script) => {
    const { runs, tools } = fixture();
    const model = scriptedModel([...(script as ScriptItem[]), ...Array.from({ length: 6 }, () => 'fine')]);
    const agent = createAgent({ model, tools, maxTurns: 6, canUseTool: () => ({ behavior: 'allow' }) });
    await agent.run('start').result;
    await agent.run('again').result;
    expectValidRequests(model, agent.messages);
    expect(model.requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(runs).size).toBe(runs.length);
    expect(() => JSON.stringify(agent.snapshot())).not.toThrow();
  });

  it('property: random hostile turns, calls allowed by the host', async () => {
    await fc.assert(fc.asyncProperty(fc.array(hostileTurn, { minLength: 1, maxLength: 4 }), (turns) => play(turns, { allow: true }).then(() => undefined)), { numRuns: 120 });
  });

  it('property: random hostile turns, calls parked and approved later', async () => {
    await fc.assert(fc.asyncProperty(fc.array(hostileTurn, { minLength: 1, maxLength: 4 }), (turns) => play(turns, { allow: false }).then(() => undefined)), { numRuns: 80 });
  });

  it('duplicate ids: the call runs once and the duplicate is answered with an error result', async () => {
    const { runs, tools } = fixture();
    const model = scriptedModel([
      turn({ type: 'tool_use', id: 'dup', name: 'echo', input: { text: 'a' } } as ContentBlock, { type: 'tool_use', id: 'dup', name: 'echo', input: { text: 'b' } } as ContentBlock),
      'fine',
    ]);
    const agent = createAgent({ model, tools });
    await agent.run('go').result;
    expect(runs).toHaveLength(1);
    const results = (model.requests[1]!.messages.at(-1)!.content as Array<{ type: string; is_error?: boolean }>).filter((block) => block.type === 'tool_result');
    expect(results).toHaveLength(2);
    expect(results.filter((result) => result.is_error)).toHaveLength(1);
    expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
  });
});
