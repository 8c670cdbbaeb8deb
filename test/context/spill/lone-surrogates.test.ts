import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptedModel } from 'agent-harness/testing';
import { readToolOutputTool } from '../../../src/context/spill/read-tool-output-tool.js';
import { memorySpillStore } from '../../../src/context/spill/spill-store.js';
import { spillToolResult } from '../../../src/context/spill/spill-tool-result.js';
import type { ToolAgentContext } from '../../../src/tools/types.js';

// The Messages API refuses a lone UTF-16 surrogate with 400 "no low surrogate in string": a cut
// in the middle of an emoji must move to a code point boundary.
/** No lone surrogate (with the u flag, a pair is one code point and does not match). */
const wellFormed = (text: string) => !/\p{Surrogate}/u.test(text);
const emojis = 'a'.repeat(1_999) + '😀'.repeat(60_000);
const dump = defineTool({ name: 'Dump', description: 'Dumps.', inputSchema: z.object({}), readOnly: true, execute: () => emojis });
const sent = (model: ScriptedModel) => String((model.requests[1]!.messages.at(-1)!.content as Array<{ content: unknown }>)[0]!.content);

const agentContext: ToolAgentContext = { sessionId: 's', agentId: undefined, permissionMode: 'default', toolState: { get: () => undefined, set: () => {} } };
async function call(input: unknown, text: string, pageChars = 20_000): Promise<string> {
  const store = memorySpillStore();
  store.save({ handle: 'out_x', toolUseId: 'x', toolName: 'Dump', text });
  const tool = readToolOutputTool({ store, pageChars });
  const parsed = tool.parseInput(input);
  if (!parsed.ok) throw new Error(parsed.issues.join('; '));
  const answer = (await tool.execute({ input: parsed.value, signal: new AbortController().signal, toolUseId: 'toolu_read', agent: agentContext })) as unknown;
  return typeof answer === 'string' ? answer : String((answer as { content: unknown }).content);
}

describe('cuts of tool results never split a surrogate pair', () => {
  it('the spill preview', async () => {
    const model = scriptedModel([turn(toolCall('Dump', {})), 'ok']);
    await createAgent({ model, tools: [dump], context: { spill: true } }).run('dump').result;
    expect(sent(model)).toContain('too long to show in full');
    expect(wellFormed(sent(model))).toBe(true);
  });

  it('the truncation past maxToolResultChars', async () => {
    const model = scriptedModel([turn(toolCall('Dump', {})), 'ok']);
    await createAgent({ model, tools: [dump], maxToolResultChars: 2_000 }).run('dump').result;
    expect(sent(model)).toContain('[Output truncated');
    expect(wellFormed(sent(model))).toBe(true);
  });

  it('the spill preview, for any text and budgets (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 1, max: 200 }), fc.nat(300), fc.nat(300), (text, maxChars, headChars, tailChars) => {
        const { result } = spillToolResult({ type: 'tool_result', tool_use_id: 't', content: text }, { toolName: 'T', maxChars, headChars, tailChars });
        expect(wellFormed(result.content as string)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a ReadToolOutput page that starts or ends inside a pair, and a long line in a search', async () => {
    const text = 'ab' + '😀'.repeat(100);
    // Offset 3 is the low half of the first emoji: the page starts at its high half.
    const page = await call({ handle: 'out_x', offset: 3, length: 10 }, text);
    expect(wellFormed(page)).toBe(true);
    expect(page).toMatch(/^\[out_x: characters 2–12 of 202/);
    expect(page.split('\n')[1]).toBe('😀'.repeat(5));
    // A page of 1 ending inside a pair: it grows to the whole character rather than stall.
    const one = await call({ handle: 'out_x', offset: 2, length: 1 }, text);
    expect(wellFormed(one)).toBe(true);
    expect(one).toContain('Continue with offset 4.');
    const odd = await call({ handle: 'out_x', offset: 2, length: 9 }, text);
    expect(wellFormed(odd)).toBe(true);
    expect(odd).toContain('Continue with offset 10.');
    const found = await call({ handle: 'out_x', search: 'ab' }, 'x'.repeat(499) + '😀'.repeat(10) + 'ab');
    expect(wellFormed(found)).toBe(true);
  });

  it('paging from 0 with odd page sizes reads the whole text back, every page well formed (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 50 }), async (text, length) => {
        let offset = 0;
        let read = '';
        for (let page = 0; page <= text.length; page++) {
          const answer = await call({ handle: 'out_x', offset, length }, text, 50);
          expect(wellFormed(answer)).toBe(true);
          read += answer.slice(answer.indexOf('\n') + 1);
          const next = /Continue with offset (\d+)/.exec(answer.slice(0, answer.indexOf('\n')));
          if (!next) break;
          offset = Number(next[1]);
        }
        expect(read).toBe(text);
      }),
      { numRuns: 100 },
    );
  });
});
