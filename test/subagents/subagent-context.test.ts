import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentEvent, type ContextOptions, type Model } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { subagentContext } from '../../src/subagents/build-subagent-core.js';

/** A read-only tool that answers `chars` characters (40,000 fill a 10,000-token window past its compaction threshold). */
const probeOf = (chars = 40_000) => defineTool({ name: 'probe', description: 'Probes.', inputSchema: z.object({}), readOnly: true, execute: () => 'x'.repeat(chars) });
/** The probe call, with a usage report that keeps the estimate of the next request near its size (a tiny one would calibrate it down). */
const probeTurn = () => turn(toolCall('probe', {}), { usage: { inputTokens: 1_000, outputTokens: 0 } });
const agentCall = toolCall('Agent', { description: 'probe it', prompt: 'Probe.', subagent_type: 'worker' }, 'call_agent');

/** Runs a parent whose one `Agent` call starts a `worker` on `subagentModel`; returns the subagent's events. */
async function runWorker(context: ContextOptions, subagentModel: Model, extra: { maxToolResultChars?: number; probeChars?: number } = {}): Promise<AgentEvent[]> {
  const agent = createAgent({
    model: scriptedModel([turn(agentCall), 'Done.']),
    tools: [probeOf(extra.probeChars)],
    context,
    ...(extra.maxToolResultChars !== undefined ? { maxToolResultChars: extra.maxToolResultChars } : {}),
    agents: { worker: { description: 'Probes.', prompt: 'You probe.', model: subagentModel } },
  });
  const events: AgentEvent[] = [];
  for await (const event of agent.run('go')) if (event.agentId !== undefined) events.push(event);
  return events;
}

const windowsSeen = (events: AgentEvent[]) => [...new Set(events.flatMap((event) => (event.type === 'context-usage' ? [event.usage.window] : [])))];

describe("a subagent's history is managed with the parent's context settings", () => {
  it('takes the window on the same model, and the table, not the window, on another model', async () => {
    const same = await runWorker({ window: 50_000 }, scriptedModel(['found']));
    expect(windowsSeen(same)).toEqual([50_000]);
    const other = await runWorker({ window: 50_000, windows: { 'other-model': 70_000 } }, scriptedModel(['found'], { modelId: 'other-model' }));
    expect(windowsSeen(other)).toEqual([70_000]);
  });

  it("compacts with the parent's summary instructions", async () => {
    const worker = scriptedModel([probeTurn(), '<summary>Probed.</summary>', 'found']);
    const events = await runWorker({ window: 10_000, compaction: { outputReserve: 500, keepTokens: 0, instructions: 'KEEP-EVERY-PATH' } }, worker);
    expect(events.filter((event) => event.type === 'compaction-end')).toHaveLength(1);
    expect(JSON.stringify(worker.requests[1]!.messages)).toContain('KEEP-EVERY-PATH');
  });

  it('does not compact when the parent turned compaction off', async () => {
    // 800,000 characters pass the default window's threshold (0.9 × 200,000 tokens), which is
    // what a subagent compacted at before it took the parent's settings.
    const worker = scriptedModel([probeTurn(), 'found']);
    const events = await runWorker({ compaction: false }, worker, { maxToolResultChars: 1_000_000, probeChars: 800_000 });
    expect(events.filter((event) => event.type === 'compaction-start')).toHaveLength(0);
    expect(worker.requests).toHaveLength(2);
  });

  it('takes spill (its long results are kept in its own state, paged with its own ReadToolOutput)', () => {
    expect(subagentContext({ spill: true }, true)).toEqual({ spill: true });
    expect(subagentContext({ spill: { maxChars: 5_000 }, clearing: false, window: 1_000 }, false)).toEqual({ spill: { maxChars: 5_000 }, clearing: false });
    expect(subagentContext({ spill: false }, true)).toBeUndefined();
    expect(subagentContext(undefined, true)).toBeUndefined();
  });
});

describe("a subagent and the parent's spilled outputs", () => {
  const SECRET = `PARENT-ONLY ${'y'.repeat(60_000)}`;
  const secretTool = defineTool({ name: 'secret', description: 'Reads a long secret.', inputSchema: z.object({}), readOnly: true, execute: () => SECRET });

  /** A parent that spills the long result of its `secret` call (handle `out_p_secret`), then starts a worker that pages that handle. */
  function spillingParent(worker: Model, tools?: string[]) {
    return createAgent({
      model: scriptedModel([turn(toolCall('secret', {}, 'p_secret')), turn(toolCall('Agent', { description: 'look', prompt: 'Look.', subagent_type: 'worker' }, 'p_agent')), 'Done.']),
      tools: [secretTool],
      context: { spill: true },
      agents: { worker: { description: 'Looks.', prompt: 'You look.', model: worker, ...(tools ? { tools } : {}) } },
    });
  }

  it('gets a ReadToolOutput of its own only: it cannot page through an output the parent kept aside', async () => {
    const worker = scriptedModel([turn(toolCall('ReadToolOutput', { handle: 'out_p_secret', offset: 0, length: 100 }, 'c_page')), 'Looked.']);
    const agent = spillingParent(worker);
    const events: AgentEvent[] = [];
    for await (const event of agent.run('go')) events.push(event);
    expect(agent.snapshot().spilled?.['out_p_secret']).toBeDefined();
    expect(JSON.stringify(worker.requests[1]!.messages)).not.toContain('PARENT-ONLY');
    const page = events.find((event) => event.type === 'tool-result' && event.toolUseId === 'c_page');
    expect(page).toMatchObject({ isError: true });
    expect(page?.type === 'tool-result' && page.content).toMatch(/No kept output has the handle "out_p_secret"/);
  });

  it('a type whose tools name ReadToolOutput is accepted: the name is its own tool, which cannot reach the parent\'s outputs', async () => {
    const worker = scriptedModel([turn(toolCall('ReadToolOutput', { handle: 'out_p_secret', search: 'PARENT' }, 'c_page')), 'Looked.']);
    const agent = spillingParent(worker, ['secret', 'ReadToolOutput']);
    await agent.run('go').result;
    expect(JSON.stringify(worker.requests[1]!.messages)).not.toContain('PARENT-ONLY');
  });

  it("still gets a host tool of that name (no spill): it is the host's, not the session's", async () => {
    const hostReader = defineTool({ name: 'ReadToolOutput', description: 'Reads.', inputSchema: z.object({}), readOnly: true, execute: () => 'host reader' });
    const worker = scriptedModel(['Looked.']);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'look', prompt: 'Look.', subagent_type: 'worker' }, 'p_agent')), 'Done.']),
      tools: [hostReader],
      agents: { worker: { description: 'Looks.', prompt: 'You look.', model: worker } },
    });
    await agent.run('go').result;
    expect(worker.requests[0]!.request.tools!.map((tool) => tool.name)).toContain('ReadToolOutput');
  });
});
