import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentOptions, type Message } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptedModel } from 'agent-harness/testing';
import { wellFormedValue } from '../../src/model/well-formed-value.js';

/** The first half of an emoji, as a message cut mid-character leaves it. */
const HALF = '\uD83D';
/** What it must become: the replacement character. */
const REPLACED = '\uFFFD';

/** The paths of every string in `value` that holds a lone surrogate (the Messages API refuses them). */
function loneSurrogatePaths(value: unknown, path = '$', found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)) found.push(path);
  } else if (Array.isArray(value)) value.forEach((item, index) => loneSurrogatePaths(item, `${path}[${index}]`, found));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) loneSurrogatePaths(item, `${path}.${key}`, found);
  return found;
}

const probe = (execute: () => unknown) => defineTool({ name: 'probe', description: 'Probes.', inputSchema: z.object({}), kind: 'edit', execute: execute as never });
const callProbe = () => turn(toolCall('probe', {}, 'toolu_p'));
const allow = () => ({ behavior: 'allow' as const });

interface EntryPoint {
  /** The model's script. */
  script: Parameters<typeof scriptedModel>[0];
  /** The agent's options (model aside). */
  options: Omit<AgentOptions, 'model'>;
  /** The run's prompt. */
  prompt?: string;
}

/** Every way a host, a tool or a hook puts text into the history, each given a lone surrogate. */
const ENTRY_POINTS: Record<string, () => EntryPoint> = {
  'a tool that throws': () => ({ script: [callProbe(), 'done'], options: { tools: [probe(() => { throw new Error(`disk full ${HALF}`); })], canUseTool: allow } }),
  'a tool that returns text blocks': () => ({ script: [callProbe(), 'done'], options: { tools: [probe(() => [{ type: 'text', text: `out ${HALF}` }])], canUseTool: allow } }),
  'canUseTool denying': () => ({ script: [callProbe(), 'done'], options: { tools: [probe(() => 'ran')], canUseTool: () => ({ behavior: 'deny', message: `no ${HALF}` }) } }),
  'a PreToolUse hook denying': () => ({ script: [callProbe(), 'done'], options: { tools: [probe(() => 'ran')], hooks: { PreToolUse: [{ hook: () => ({ decision: 'deny', reason: `no ${HALF}` }) }] } } }),
  'a PostToolUse hook adding context': () => ({
    script: [callProbe(), 'done'],
    options: { tools: [probe(() => 'ran')], canUseTool: allow, hooks: { PostToolUse: [{ hook: () => ({ additionalContext: `ctx ${HALF}` }) }] } },
  }),
  'a PostToolUse hook replacing the output': () => ({
    script: [callProbe(), 'done'],
    options: { tools: [probe(() => 'ran')], canUseTool: allow, hooks: { PostToolUse: [{ hook: () => ({ updatedOutput: `out ${HALF}` }) }] } },
  }),
  'a Stop hook continuing': () => {
    let once = false;
    return { script: ['first', 'second'], options: { hooks: { Stop: [{ hook: () => (once ? {} : ((once = true), { continue: true, reason: `again ${HALF}` })) }] } } };
  },
  'a UserPromptSubmit hook adding context': () => ({ script: ['ok'], options: { hooks: { UserPromptSubmit: [{ hook: () => ({ additionalContext: `ctx ${HALF}` }) }] } } }),
  'a SessionStart hook adding context': () => ({ script: ['ok'], options: { hooks: { SessionStart: [{ hook: () => ({ additionalContext: `ctx ${HALF}` }) }] } } }),
  'the prompt': () => ({ script: ['ok'], options: {}, prompt: `prompt ${HALF}` }),
  'the system prompt': () => ({ script: ['ok'], options: { system: `system ${HALF}` } }),
  'an AskUserQuestion answer': () => ({
    script: [turn(toolCall('AskUserQuestion', { questions: [{ question: 'Who?', header: 'Audience', options: [{ label: 'A', description: '' }, { label: 'B', description: '' }], multiSelect: false }] }, 'toolu_ask')), 'ok'],
    options: { askUserQuestion: true, canUseTool: (_name, input) => ({ behavior: 'allow', updatedInput: { ...(input as object), answers: { 'Who?': `A ${HALF}` } } }) },
  }),
  'a plan the host edits when approving': () => ({
    script: [turn(toolCall('ExitPlanMode', { plan: '# Plan\n\n1. Write.' }, 'toolu_plan')), 'ok'],
    options: { permissionMode: 'plan', canUseTool: (_name, _input, context) => (context.reason.type === 'plan-approval' ? { behavior: 'allow', updatedInput: { plan: `# Plan ${HALF}\n\n1. Write.` } } : { behavior: 'allow' }) },
  }),
  'a plan the host rejects': () => ({
    script: [turn(toolCall('ExitPlanMode', { plan: '# Plan\n\n1. Write.' }, 'toolu_plan')), 'ok'],
    options: { permissionMode: 'plan', canUseTool: () => ({ behavior: 'deny', message: `more risks ${HALF}` }) },
  }),
  // Long texts (4,096 units and more) are remembered per object once found well-formed: a long one must still be checked.
  'a long prompt': () => ({ script: ['ok'], options: {}, prompt: `${'p'.repeat(10_000)} ${HALF}` }),
  'a tool that returns a long text': () => ({ script: [callProbe(), 'done'], options: { tools: [probe(() => `${'é'.repeat(10_000)} ${HALF}`)], canUseTool: allow } }),
  "the model's own long tool input": () => ({ script: [turn(toolCall('probe', { note: `${'n'.repeat(10_000)} ${HALF}` } as never, 'toolu_p')), 'done'], options: { tools: [probe(() => 'ran')], canUseTool: allow } }),
  'the model\'s own tool input': () => ({ script: [turn(toolCall('probe', { note: `half ${HALF}` } as never, 'toolu_p')), 'done'], options: { tools: [probe(() => 'ran')], canUseTool: allow } }),
};

async function runThrough(entry: EntryPoint): Promise<{ model: ScriptedModel; messages: readonly Message[]; stored: unknown[] }> {
  const model = scriptedModel(entry.script);
  const store = memorySessionStore();
  const agent = createAgent({ model, store, ...entry.options });
  const result = await agent.run(entry.prompt ?? 'go').result;
  expect(result.status, result.error?.message).not.toBe('error');
  // What the history is made of in the transcript (the host's own values, e.g. a decision's message, are kept as given).
  const stored: unknown[] = [];
  for await (const entry of store.load(agent.sessionId)) if (entry.kind === 'message' || entry.kind === 'tool-result') stored.push(entry);
  return { model, messages: agent.messages, stored };
}

describe('no lone surrogate reaches the history, whatever path the text takes', () => {
  for (const [name, make] of Object.entries(ENTRY_POINTS)) {
    it(`${name}: every request, the history and the stored transcript are well-formed, with U+FFFD in its place`, async () => {
      const { model, messages, stored } = await runThrough(make());
      expect(model.requests.length).toBeGreaterThan(0);
      for (const request of model.requests) expect(loneSurrogatePaths({ system: request.request.system, messages: request.messages })).toEqual([]);
      expect(loneSurrogatePaths(messages)).toEqual([]);
      expect(loneSurrogatePaths(stored)).toEqual([]);
      // The text still arrived, its broken character replaced.
      expect(JSON.stringify(model.requests.map((request) => [request.request.system, request.messages]))).toContain(REPLACED);
    });
  }

  it('a resumed snapshot with a lone surrogate in its history is sent well-formed', async () => {
    const first = createAgent({ model: scriptedModel(['ok']) });
    await first.run('hello').result;
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()).replace('hello', 'hello \\ud83d'));
    const model = scriptedModel(['ok']);
    const agent = createAgent({ model, resume: snapshot });
    await agent.run('again').result;
    expect(loneSurrogatePaths(model.requests[0]!.messages)).toEqual([]);
  });
});

describe('wellFormedValue', () => {
  it('returns the same value when there is nothing to replace, and copies only the changed path', () => {
    const clean = { role: 'user', content: [{ type: 'text', text: 'fine 😀' }, { type: 'image', source: { data: 'x' } }] };
    expect(wellFormedValue(clean)).toBe(clean);
    const broken = { role: 'user', content: [{ type: 'text', text: `bad ${HALF}` }, clean.content[1]] };
    const fixed = wellFormedValue(broken);
    expect(fixed).not.toBe(broken);
    expect(fixed.content[0]).toEqual({ type: 'text', text: `bad ${REPLACED}` });
    expect(fixed.content[1]).toBe(clean.content[1]);
    expect(broken.content[0]!.text).toBe(`bad ${HALF}`);
  });

  it('leaves blocks it is told to keep (thinking, whose signature covers its text)', () => {
    const thinking = { type: 'thinking', thinking: `t ${HALF}`, signature: 's' };
    expect(wellFormedValue([thinking], (block) => (block as { type?: string }).type === 'thinking')[0]).toBe(thinking);
  });

  describe('long texts, remembered per object once found well-formed', () => {
    const LONG = '’'.repeat(5000);

    it('checks a field given another text, of another length or the same, and repairs it', () => {
      const block = { type: 'text', text: LONG };
      expect(wellFormedValue(block)).toBe(block);
      block.text = `${LONG}${HALF}`;
      expect(wellFormedValue(block).text).toBe(`${LONG}${REPLACED}`);
      block.text = `${LONG.slice(1)}${HALF}`;
      expect(block.text.length).toBe(LONG.length);
      expect(wellFormedValue(block).text).toBe(`${LONG.slice(1)}${REPLACED}`);
    });

    it('never remembers a text that was not well-formed: the same object is repaired every time', () => {
      const block = { type: 'text', text: `${LONG}${HALF}` };
      for (let round = 0; round < 3; round++) {
        const fixed = wellFormedValue(block);
        expect(fixed, `round ${round}`).not.toBe(block);
        expect(fixed.text.endsWith(REPLACED), `round ${round}`).toBe(true);
      }
    });

    it('checks every long field of an object, not only the one it remembers', () => {
      const input = { path: LONG, content: `${LONG}x` };
      expect(wellFormedValue(input)).toBe(input);
      input.path = `${HALF}${LONG}`;
      expect(wellFormedValue(input)).toEqual({ path: `${REPLACED}${LONG}`, content: `${LONG}x` });
      const other = { first: `${LONG}${HALF}`, second: LONG };
      expect(wellFormedValue(other)).toEqual({ first: `${LONG}${REPLACED}`, second: LONG });
    });

    it('checks the same long text again in another object', () => {
      const text = `${LONG}${HALF}`;
      expect(wellFormedValue({ text }).text).toBe(`${LONG}${REPLACED}`);
      expect(wellFormedValue([{ text }])[0]!.text).toBe(`${LONG}${REPLACED}`);
    });
  });

  it('replaces lone surrogates in keys, and a lone low surrogate too', () => {
    expect(wellFormedValue({ [`k${HALF}`]: '\uDC00x' })).toEqual({ [`k${REPLACED}`]: `${REPLACED}x` });
  });
});
