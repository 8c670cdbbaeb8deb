import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentEvent, type ToolDisplay } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const publishInput = z.object({ slug: z.string(), text: z.string() });

function publishTool(display: (args: { input: z.output<typeof publishInput> }) => unknown) {
  return defineTool({
    name: 'publish',
    description: 'Publishes an article.',
    inputSchema: publishInput,
    display: display as never,
    execute: ({ input }) => `published ${input.slug}`,
  });
}

async function runOnce(tool: ReturnType<typeof publishTool>, options: { allow?: boolean } = {}) {
  const model = scriptedModel([turn(toolCall('publish', { slug: 'tide-pools', text: 'Hello' }, 'toolu_p')), 'Done.']);
  const events: AgentEvent[] = [];
  const agent = createAgent({ model, tools: [tool], ...(options.allow ? { rules: { allow: ['publish'] } } : {}) });
  agent.on('error', (event) => events.push(event));
  agent.on('permission-request', (event) => events.push(event));
  const result = await agent.run('Publish it.').result;
  return { agent, result, events };
}

describe('a tool’s display', () => {
  it('is asked only for a call that needs an approval, and lands on the pending approval', async () => {
    const card: ToolDisplay = { title: 'Publish tide-pools', summary: 'Publish “tide-pools” on the website.', body: 'Hello', bodyFormat: 'markdown' };
    const display = vi.fn((_args: { input: unknown }) => card);
    const allowed = await runOnce(publishTool(display), { allow: true });
    expect(allowed.result.status).toBe('completed');
    expect(display).not.toHaveBeenCalled();
    const asked = await runOnce(publishTool(display));
    expect(asked.result.status).toBe('awaiting-approval');
    expect(display).toHaveBeenCalledTimes(1);
    expect(display.mock.calls[0]![0]).toMatchObject({ input: { slug: 'tide-pools', text: 'Hello' }, toolUseId: 'toolu_p' });
    expect(asked.agent.pendingApprovals[0]!.display).toEqual(card);
  });

  it('that throws is reported as a non-fatal error, and the approval goes on without a display', async () => {
    const { agent, result, events } = await runOnce(publishTool(() => { throw new Error('template missing.'); }));
    expect(result.status).toBe('awaiting-approval');
    expect(agent.pendingApprovals[0]!.display).toBeUndefined();
    const error = events.find((event) => event.type === 'error');
    expect(error).toMatchObject({ fatal: false });
    expect((error as { error: Error }).error.message).toBe('The display of tool "publish" failed: template missing. The approval shows the raw input instead.');
  });

  it.each([
    ['no summary', { title: 'x' }],
    ['a body that is not text', { title: 'x', summary: 'y', body: { diff: 1 } }],
    ['an unknown body format', { title: 'x', summary: 'y', body: 'b', bodyFormat: 'html' }],
    ['a file without after', { title: 'x', summary: 'y', file: { path: 'a', before: null } }],
    ['a string', 'Publish it'],
  ])('that answers %s is refused the same way', async (_name, answer) => {
    const { agent, events } = await runOnce(publishTool(() => answer));
    expect(agent.pendingApprovals[0]!.display).toBeUndefined();
    expect(events.some((event) => event.type === 'error' && /The display of tool "publish" failed: returned/.test(event.error.message))).toBe(true);
  });

  it('that answers undefined leaves the card without a display, silently', async () => {
    const { agent, events } = await runOnce(publishTool(() => undefined));
    expect(agent.pendingApprovals[0]!.display).toBeUndefined();
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
  });

  it('that never answers is released by an interrupt', async () => {
    let entered!: () => void;
    const displaying = new Promise<void>((resolve) => (entered = resolve));
    const hanging = publishTool(() => {
      entered();
      return new Promise(() => undefined);
    });
    const model = scriptedModel([turn(toolCall('publish', { slug: 's', text: 't' }, 'toolu_p')), 'Done.']);
    const agent = createAgent({ model, tools: [hanging] });
    const run = agent.run('Publish it.');
    await displaying;
    agent.interrupt();
    expect((await run.result).status).toBe('interrupted');
  });
});

describe('a tool’s display made of model text', () => {
  it('shows bidi, invisible and control characters of title, summary, body, path and cwd as <U+XXXX> on the card; the call keeps its input', async () => {
    const tool = publishTool(({ input }) => ({
      title: `Publish ${input.slug}`,
      summary: `Publish “${input.slug}”.`,
      body: input.text,
      cwd: `/srv/${input.slug}`,
      file: { path: `posts/${input.slug}.md`, before: null, after: input.text },
    }));
    const model = scriptedModel([turn(toolCall('publish', { slug: 'safe\u202Egnp.exe', text: 'ok\x1b]0;owned\x07\nline\u200B2' }, 'toolu_p')), 'Done.']);
    const requests: AgentEvent[] = [];
    const agent = createAgent({ model, tools: [tool] });
    agent.on('permission-request', (event) => requests.push(event));
    const result = await agent.run('Publish it.').result;
    expect(result.status).toBe('awaiting-approval');
    const display = agent.pendingApprovals[0]!.display!;
    expect(display).toEqual({
      title: 'Publish safe<U+202E>gnp.exe',
      summary: 'Publish “safe<U+202E>gnp.exe”.',
      body: 'ok<U+001B>]0;owned<U+0007>\nline<U+200B>2',
      cwd: '/srv/safe<U+202E>gnp.exe',
      // The file's content is what a side-by-side view compares: kept as it is (see ToolDisplay.file).
      file: { path: 'posts/safe<U+202E>gnp.exe.md', before: null, after: 'ok\x1b]0;owned\x07\nline\u200B2' },
    });
    expect(requests[0]).toMatchObject({ display });
    // The input itself is not rewritten: what runs is what the model asked.
    expect(agent.pendingApprovals[0]!.input).toEqual({ slug: 'safe\u202Egnp.exe', text: 'ok\x1b]0;owned\x07\nline\u200B2' });
  });
});
