import { describe, expect, it } from 'vitest';
import { createAgent, type Agent } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import type { AgentCore } from '../../src/runtime/agent-core.js';

// The closing signal of an agent is made only when something asks for it (most agents never do):
// `close()` of an agent nobody asked it of makes none, and one asked for afterwards is aborted.

const coreOf = (agent: Agent) => (agent as unknown as { loadedCore: AgentCore }).loadedCore;

describe("the agent's closing signal", () => {
  it('asked for before close(): aborts at close() with "closed", once', async () => {
    const agent = createAgent({ model: scriptedModel(['Hi.']) });
    await agent.run('hi').result;
    const core = coreOf(agent);
    const signal = core.treeClosing;
    let aborts = 0;
    signal.addEventListener('abort', () => aborts++);
    expect(signal.aborted).toBe(false);
    expect(core.closed).toBe(false);
    await agent.close();
    expect(core.closed).toBe(true);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('closed');
    core.markClosed();
    expect(aborts).toBe(1);
  });

  it('asked for only after close(): comes aborted, the same signal every time', async () => {
    const agent = createAgent({ model: scriptedModel(['Hi.']) });
    await agent.run('hi').result;
    await agent.close();
    const core = coreOf(agent);
    expect(core.closed).toBe(true);
    expect(core.treeClosed).toBe(true);
    const signal = core.treeClosing;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('closed');
    expect(core.treeClosing).toBe(signal);
  });

  it('an agent never closed has an open signal', async () => {
    const agent = createAgent({ model: scriptedModel(['Hi.']) });
    await agent.run('hi').result;
    expect(coreOf(agent).treeClosing.aborted).toBe(false);
    expect(coreOf(agent).closed).toBe(false);
    await agent.close();
  });
});
