import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { readToolOutputTool } from '../../../src/context/spill/read-tool-output-tool.js';
import { memorySpillStore } from '../../../src/context/spill/spill-store.js';
import { spillHandle, spillToolResult } from '../../../src/context/spill/spill-tool-result.js';
import type { ToolResultBlock } from '../../../src/model/messages.js';
import type { ToolAgentContext } from '../../../src/tools/types.js';

const log = Array.from({ length: 5000 }, (_, index) => `line ${index + 1}: ${index % 97 === 0 ? 'ERROR disk full' : 'ok'}`).join('\n');
const result = (content: ToolResultBlock['content']): ToolResultBlock => ({ type: 'tool_result', tool_use_id: 'toolu_01Abc', content });

const agent: ToolAgentContext = { sessionId: 's', agentId: undefined, permissionMode: 'default', toolState: { get: () => undefined, set: () => {} } };
async function call(tool: ReturnType<typeof readToolOutputTool>, input: unknown) {
  const parsed = tool.parseInput(input);
  if (!parsed.ok) throw new Error(parsed.issues.join('; '));
  return tool.execute({ input: parsed.value, signal: new AbortController().signal, toolUseId: 'toolu_read', agent }) as Promise<unknown>;
}

describe('spillToolResult', () => {
  it('leaves a result within the limit untouched (the same object)', () => {
    const small = result('short');
    expect(spillToolResult(small, { toolName: 'Bash' }).result).toBe(small);
    expect(spillToolResult(small, { toolName: 'Bash' }).spilled).toBeUndefined();
  });

  it('keeps a long result whole and sends a head/tail preview that names the handle', () => {
    const { result: sent, spilled } = spillToolResult(result(log), { toolName: 'Bash' });
    expect(spilled).toEqual({ handle: 'out_toolu_01Abc', toolUseId: 'toolu_01Abc', toolName: 'Bash', text: log });
    const preview = sent.content as string;
    expect(preview.length).toBeLessThan(4_000);
    expect(preview).toContain('"out_toolu_01Abc"');
    expect(preview).toContain('ReadToolOutput({ "handle": "out_toolu_01Abc", "offset": ');
    expect(preview).toContain('line 1: ERROR disk full');
    expect(preview.trimEnd().endsWith('line 5000: ok')).toBe(true);
    // Cut at line ends: no partial line at the seams.
    const head = preview.slice(preview.indexOf(']\n\n') + 3, preview.indexOf('\n\n[…'));
    expect(log.startsWith(head)).toBe(true);
    expect(head.endsWith('\n')).toBe(true);
    expect(sent.tool_use_id).toBe('toolu_01Abc');
  });

  it('the offset in the note is where the preview stops', () => {
    const { result: sent } = spillToolResult(result(log), { toolName: 'Bash' });
    const offset = Number(/"offset": (\d+)/.exec(sent.content as string)![1]);
    const head = (sent.content as string).split('\n\n')[1]!;
    expect(log.slice(0, offset).startsWith(head.trimEnd())).toBe(true);
    expect(log[offset - 1]).toBe('\n');
  });

  it('keeps images in the preview and the error flag', () => {
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png', data: 'AAAA' } };
    const { result: sent } = spillToolResult({ ...result([{ type: 'text', text: log }, image]), is_error: true }, { toolName: 'Shot' });
    expect(sent.is_error).toBe(true);
    expect((sent.content as unknown[]).at(-1)).toEqual(image);
  });

  it('never shows more than maxChars of the text, whatever the head and tail settings (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 3000 }), fc.integer({ min: 1, max: 500 }), fc.nat(5000), fc.nat(5000), (text, maxChars, headChars, tailChars) => {
        const { result: sent, spilled } = spillToolResult(result(text), { toolName: 'T', maxChars, headChars, tailChars });
        if (text.length <= maxChars) {
          expect(spilled).toBeUndefined();
          return;
        }
        expect(spilled!.text).toBe(text);
        const preview = sent.content as string;
        const shown = preview.slice(preview.indexOf(']\n\n') + 3);
        const [head, tail] = shown.split(/\n\n\[… [\d,]+ characters not shown …\]\n\n/);
        expect(head!.length + tail!.length).toBeLessThanOrEqual(maxChars);
        expect(text.startsWith(head!)).toBe(true);
        expect(text.endsWith(tail!)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('derives a stable handle from the call id, without characters a handle should not carry', () => {
    expect(spillHandle('toolu_01Abc')).toBe('out_toolu_01Abc');
    expect(spillHandle('weird id/../"x"')).toBe('out_weird_id_____x_');
  });
});

describe('ReadToolOutput', () => {
  it('is read-only, so it runs in plan mode and without asking', () => {
    const tool = readToolOutputTool({ store: memorySpillStore() });
    expect(tool.readOnly).toBe(true);
    expect(tool.name).toBe('ReadToolOutput');
  });

  it('pages through a kept output by offset until the end', async () => {
    const store = memorySpillStore();
    const { spilled } = spillToolResult(result(log), { toolName: 'Bash' });
    store.save(spilled!);
    const tool = readToolOutputTool({ store, pageChars: 30_000 });
    let offset = 0;
    let read = '';
    for (let page = 0; page < 10; page++) {
      const answer = String(await call(tool, { handle: spilled!.handle, offset }));
      const header = answer.slice(0, answer.indexOf('\n'));
      read += answer.slice(answer.indexOf('\n') + 1);
      const next = /Continue with offset (\d+)/.exec(header);
      if (!next) {
        expect(header).toContain('This is the end of the output.');
        break;
      }
      offset = Number(next[1]);
    }
    expect(read).toBe(log);
  });

  it('lists the lines containing a text, with line numbers and offsets', async () => {
    const store = memorySpillStore();
    store.save({ handle: 'out_x', toolUseId: 'x', toolName: 'Bash', text: log });
    const answer = String(await call(readToolOutputTool({ store, maxMatches: 3 }), { handle: 'out_x', search: 'error' }));
    expect(answer).toContain('52 line(s) contain "error". Showing the first 3');
    expect(answer).toContain('98 (offset ');
    const offset = Number(/^98 \(offset (\d+)\)/m.exec(answer)![1]);
    expect(log.slice(offset).startsWith('line 98: ERROR')).toBe(true);
  });

  it('answers an unknown handle or an offset past the end with an error the model can act on', async () => {
    const store = memorySpillStore();
    store.save({ handle: 'out_x', toolUseId: 'x', toolName: 'Bash', text: 'abc' });
    const tool = readToolOutputTool({ store });
    expect(await call(tool, { handle: 'out_nope' })).toMatchObject({ isError: true, content: expect.stringContaining('No kept output has the handle "out_nope"') });
    expect(await call(tool, { handle: 'out_x', offset: 3 })).toMatchObject({ isError: true, content: expect.stringContaining('has 3 characters') });
    expect(tool.parseInput({ handle: 'out_x', length: 10_000_000 }).ok).toBe(false);
  });

  it('shares one input schema between tools of the same page size, and each size keeps its own limit', () => {
    const small = readToolOutputTool({ store: memorySpillStore(), pageChars: 100 });
    const smallAgain = readToolOutputTool({ store: memorySpillStore(), pageChars: 100 });
    const large = readToolOutputTool({ store: memorySpillStore(), pageChars: 5_000 });
    // Made and compiled once per size (not per agent with context.spill).
    expect(smallAgain.jsonSchema).toBe(small.jsonSchema);
    expect(smallAgain.parseInput).toBe(small.parseInput);
    expect(large.jsonSchema).not.toBe(small.jsonSchema);
    const lengthLimit = (tool: typeof small) => (tool.jsonSchema as { properties: { length: { maximum: number } } }).properties.length.maximum;
    expect([lengthLimit(small), lengthLimit(large)]).toEqual([100, 5_000]);
    expect(small.parseInput({ handle: 'out_x', length: 101 }).ok).toBe(false);
    expect(large.parseInput({ handle: 'out_x', length: 101 }).ok).toBe(true);
    // Past the 16 sizes kept, a size made again has its own limit still.
    for (let size = 1; size <= 20; size++) readToolOutputTool({ store: memorySpillStore(), pageChars: 1_000 + size });
    const smallLater = readToolOutputTool({ store: memorySpillStore(), pageChars: 100 });
    expect(lengthLimit(smallLater)).toBe(100);
    expect(smallLater.parseInput({ handle: 'out_x', length: 101 }).ok).toBe(false);
  });
});

describe('memorySpillStore', () => {
  it('refuses a misspelt or wrong option when made, instead of keeping everything (a budget that never took effect)', () => {
    expect(() => memorySpillStore({ maxChars: 10 } as never)).toThrow(/`maxChars` is not an option of memorySpillStore\. Its options are: maxTotalChars\./);
    expect(() => memorySpillStore({ maxTotalChars: 0 })).toThrow(/memorySpillStore: `maxTotalChars` must be a number of characters above 0 \(Infinity for no limit\), got 0/);
    expect(() => memorySpillStore({ maxTotalChars: '10' as never })).toThrow(ConfigurationError);
    expect(memorySpillStore({ maxTotalChars: Number.POSITIVE_INFINITY }).size).toBe(0);
  });

  it('returns copies and drops the oldest outputs past its character budget', () => {
    const store = memorySpillStore({ maxTotalChars: 10 });
    store.save({ handle: 'a', toolUseId: 'a', toolName: 'T', text: '123456' });
    store.save({ handle: 'b', toolUseId: 'b', toolName: 'T', text: '1234' });
    const loaded = store.load('a') as { text: string };
    loaded.text = 'changed';
    expect((store.load('a') as { text: string }).text).toBe('123456');
    store.save({ handle: 'c', toolUseId: 'c', toolName: 'T', text: '12' });
    expect(store.load('a')).toBeUndefined();
    expect(store.load('b')).toBeDefined();
    // One output over the whole budget is still kept (the newest always stays).
    store.save({ handle: 'd', toolUseId: 'd', toolName: 'T', text: 'x'.repeat(50) });
    expect(store.load('d')).toBeDefined();
    expect(store.size).toBe(1);
  });
});
