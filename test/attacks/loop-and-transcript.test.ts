// Attack classes: a mid-batch switch to plan mode, deep and huge tool inputs, corrupted transcript
// lines, a pathological Grep pattern and a huge Read under interrupt.
import { openSync, closeSync, ftruncateSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentHarnessError, createAgent, defineTool, type ContentBlock } from 'agent-harness';
import { fileSessionStore, workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

function tools(modeNow: () => string = () => '') {
  const runs: string[] = [];
  const gate = deferred();
  const started = deferred();
  const slowLook = defineTool({
    name: 'look',
    description: 'Looks (slowly).',
    inputSchema: z.object({}),
    readOnly: true,
    concurrencySafe: true,
    execute: async () => {
      runs.push('look');
      started.resolve();
      await gate.promise;
      return 'looked';
    },
  });
  const write = (concurrencySafe: boolean) =>
    defineTool({
      name: concurrencySafe ? 'write_parallel' : 'write',
      description: 'Writes.',
      inputSchema: z.object({ text: z.string() }),
      kind: 'edit',
      concurrencySafe,
      execute: ({ input }) => (runs.push(`write:${input.text}@${modeNow()}`), 'wrote'),
    });
  return { runs, gate, started, list: [slowLook, write(false), write(true)] };
}

describe('attack: the mode switches to plan in the middle of a batch', () => {
  it('a write in the same parallel group runs only if it started before the switch, never in plan mode', async () => {
    let agent: ReturnType<typeof createAgent>;
    const { runs, gate, started, list } = tools(() => agent.permissionMode);
    const model = scriptedModel([turn(toolCall('look', {}, 'toolu_look'), toolCall('write_parallel', { text: 'x' }, 'toolu_write')), 'ok']);
    agent = createAgent({ model, tools: list, canUseTool: () => ({ behavior: 'allow' }) });
    const run = agent.run('go');
    await started.promise;
    agent.setPermissionMode('plan');
    gate.resolve();
    await run.result;
    expect(runs.filter((entry) => entry.endsWith('@plan'))).toEqual([]);
    expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
  });

  it.each([['a serial write after a slow read', 'write']])('%s never starts once the mode is plan', async (_name, writer) => {
    const { runs, gate, started, list } = tools();
    const model = scriptedModel([turn(toolCall('look', {}, 'toolu_look'), toolCall(writer, { text: 'x' }, 'toolu_write')), 'ok']);
    const agent = createAgent({ model, tools: list, canUseTool: () => ({ behavior: 'allow' }) });
    const run = agent.run('go');
    await started.promise;
    agent.setPermissionMode('plan');
    gate.resolve();
    await run.result;
    expect(runs).toEqual(['look']);
    expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
  });

  it('a write approved before the switch and answered after it does not run in plan mode', async () => {
    const { runs, list } = tools();
    const model = scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_write')), 'ok']);
    const agent = createAgent({ model, tools: list });
    await agent.run('go').result;
    agent.setPermissionMode('plan');
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(runs).toEqual([]);
  });
});

function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let index = 0; index < depth; index++) value = { a: value };
  return value;
}
function nestedArrays(depth: number): unknown {
  let value: unknown = 1;
  for (let index = 0; index < depth; index++) value = [value];
  return value;
}

describe('attack: deep and huge tool inputs from the model', () => {
  it.each<[string, () => unknown]>([
    ['nested 30,000 arrays deep', () => ({ text: nestedArrays(30_000) })],
    ['nested 30,000 objects deep', () => ({ text: nested(30_000) })],
    ['nested 65 levels (just past the bound)', () => ({ text: nested(65) })],
    ['a 9 MB string', () => ({ text: 'x'.repeat(9_000_000) })],
    ['1,100,000 keys', () => Object.fromEntries(Array.from({ length: 1_100_000 }, (_, index) => [`k${index}`, 1]))],
    ['a top-level array 30,000 deep', () => nestedArrays(30_000)],
  ])('%s: nothing runs, the snapshot serializes, the next request is valid', async (_name, make) => {
    const runs: unknown[] = [];
    const take = defineTool({ name: 'take', description: 'Takes anything.', inputSchema: z.object({ text: z.unknown() }).passthrough(), readOnly: true, execute: ({ input }) => (runs.push(input), 'taken') });
    const model = scriptedModel([turn({ type: 'tool_use', id: 'toolu_deep', name: 'take', input: make() } as ContentBlock), 'fine', 'fine']);
    const agent = createAgent({ model, tools: [take] });
    await agent.run('go').result;
    expect(runs).toEqual([]);
    expect(() => JSON.stringify(agent.snapshot())).not.toThrow();
    await agent.run('again').result;
    for (const request of model.requests) expect(validateMessagesRequest(request.messages)).toBeUndefined();
    expect(() => JSON.stringify(model.requests.at(-1)!.messages)).not.toThrow();
    const resumed = createAgent({ model: scriptedModel([]), tools: [take], resume: JSON.parse(JSON.stringify(agent.snapshot())) });
    expect(resumed.messages.length).toBe(agent.messages.length);
  });

  it('a host edit nested 30,000 deep is refused, nothing runs', async () => {
    const runs: unknown[] = [];
    const write = defineTool({ name: 'write', description: 'w', inputSchema: z.object({ text: z.unknown() }), kind: 'edit', execute: ({ input }) => (runs.push(input), 'ok') });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'a' }, 'toolu_w')), 'ok']), tools: [write] });
    await agent.run('go').result;
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { text: nestedArrays(30_000) } }).result;
    expect(runs).toEqual([]);
    expect(() => JSON.stringify(agent.snapshot())).not.toThrow();
  });
});

describe('attack: corrupted transcript lines', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function storedSession() {
    dir = mkdtempSync(join(tmpdir(), 'attack-transcript-'));
    const echo = defineTool({ name: 'echo', description: 'e', inputSchema: z.object({ text: z.string() }), readOnly: true, execute: ({ input }) => input.text });
    const agent = createAgent({
      model: scriptedModel([turn('Checking.', toolCall('echo', { text: 'a' }, 'toolu_1')), 'First done.', turn(toolCall('echo', { text: 'b' }, 'toolu_2')), 'Second done.']),
      tools: [echo],
      store: fileSessionStore({ dir }),
    });
    await agent.run('one').result;
    await agent.run('two').result;
    await agent.close();
    const file = join(dir, readdirSync(dir).find((name) => name.endsWith('.jsonl'))!);
    return { file, sessionId: agent.sessionId, echo, messages: agent.messages };
  }

  const corruptions: Array<[string, (lines: string[]) => string[]]> = [
    ['a line of garbage in the middle', (lines) => lines.map((line, index) => (index === Math.floor(lines.length / 2) ? '}{ not json' : line))],
    ['a line cut in half in the middle', (lines) => lines.map((line, index) => (index === Math.floor(lines.length / 2) ? line.slice(0, line.length / 2) : line))],
    ['a line removed from the middle', (lines) => lines.filter((_, index) => index !== Math.floor(lines.length / 2))],
    // A batch's last result is stored in the user message carrying it (no tool-result line).
    ['the tool result lines removed', (lines) => lines.filter((line) => !line.includes('"tool-result"') && !line.includes('"tool_result"'))],
    ['every assistant message line removed', (lines) => lines.filter((line) => !line.includes('"role":"assistant"'))],
    ['every user message line removed', (lines) => lines.filter((line) => !line.includes('"role":"user"'))],
    ['two lines swapped', (lines) => { const copy = [...lines]; const middle = Math.floor(copy.length / 2); [copy[middle], copy[middle + 1]] = [copy[middle + 1]!, copy[middle]!]; return copy; }],
    ['a line duplicated', (lines) => { const middle = Math.floor(lines.length / 2); return [...lines.slice(0, middle + 1), lines[middle]!, ...lines.slice(middle + 1)]; }],
    ['a message line with a whitespace text block', (lines) => lines.map((line) => line.replace('"text":"First done."', '"text":"   "'))],
    ['a tool_use id made invalid', (lines) => lines.map((line) => line.replaceAll('toolu_1', 'bad id'))],
    ['a line with an unknown kind', (lines) => [...lines.slice(0, 2), JSON.stringify({ ...JSON.parse(lines[1]!), kind: 'mystery', seq: 999 }), ...lines.slice(2)]],
    ['a line that is JSON null', (lines) => lines.map((line, index) => (index === 2 ? 'null' : line))],
    ['a line that is a JSON array', (lines) => lines.map((line, index) => (index === 2 ? '[1,2]' : line))],
    ['a NUL byte in a line', (lines) => lines.map((line, index) => (index === 2 ? `${line.slice(0, 10)}\u0000${line.slice(10)}` : line))],
  ];

  it.each(corruptions)('%s: repaired with a warning, or refused with a clear error; never a silently invalid history', async (_name, corrupt) => {
    const { file, sessionId, echo, messages } = await storedSession();
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(file, `${corrupt(lines).join('\n')}\n`);
    const model = scriptedModel(['resumed fine']);
    const agent = createAgent({ model, tools: [echo], store: fileSessionStore({ dir }), resume: sessionId });
    const warnings: string[] = [];
    agent.on('warning', (event) => warnings.push(event.message));
    try {
      await agent.ready;
    } catch (error) {
      expect(AgentHarnessError.isInstance(error), String(error)).toBe(true);
      return;
    }
    const result = await agent.run('three').result;
    if (result.status === 'error') {
      expect(AgentHarnessError.isInstance(result.error), String(result.error)).toBe(true);
    } else {
      expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
      const before = JSON.stringify(messages);
      const loaded = JSON.stringify(model.requests[0]!.messages.slice(0, messages.length));
      if (loaded !== before) expect(warnings.length, 'the history changed without a warning').toBeGreaterThan(0);
    }
    await agent.close();
  });
});

describe('attack: Grep and Read under interrupt', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['^(a+)+$', '(a|aa)+$', '(a*)*b', '^(a|a?)+$', '(.*a){20}'])('Grep %j on a hostile line ends when the agent is interrupted', async (pattern) => {
    dir = mkdtempSync(join(tmpdir(), 'attack-grep-'));
    writeFileSync(join(dir, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    const model = scriptedModel([turn(toolCall('Grep', { pattern, output_mode: 'content' }, 'toolu_grep')), 'ok']);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: dir, grepTimeoutMs: 600_000 }) });
    agent.on('tool-call', () => setImmediate(() => agent.interrupt()));
    const result = await agent.run('search').result;
    expect(result.status).toBe('interrupted');
  });

  it('Read of an 8 GB sparse file stops on interrupt and reads only a window', async () => {
    dir = mkdtempSync(join(tmpdir(), 'attack-read-'));
    const file = join(dir, 'huge.bin');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 8 * 1024 ** 3);
    closeSync(fd);
    const model = scriptedModel([turn(toolCall('Read', { file_path: 'huge.bin' }, 'toolu_read')), 'ok']);
    const agent = createAgent({ model, tools: workspaceTools({ cwd: dir }) });
    agent.on('tool-call', () => setImmediate(() => agent.interrupt()));
    const result = await agent.run('read it').result;
    expect(['interrupted', 'completed']).toContain(result.status);
    // Not interrupted in time: the Read itself must still have answered without reading 8 GB.
    const plain = createAgent({ model: scriptedModel([turn(toolCall('Read', { file_path: 'huge.bin' }, 'toolu_read2')), 'ok']), tools: workspaceTools({ cwd: dir }) });
    const done = await plain.run('read it').result;
    expect(done.status).toBe('completed');
  });
});
