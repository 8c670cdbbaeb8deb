// Attack class: a host's odd `timeoutMs` on a hook. Node fires a timer whose delay is past
// 2^31 - 1 ms (about 24.8 days) after 1 ms, so a host that wrote "no real limit" as a large
// number (Number.MAX_SAFE_INTEGER, 30 days) had every such hook time out at once: a PreToolUse
// hook then denied every call (fail closed) with "timed out after 9007199254740991 ms".
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

describe('attack: a hook timeoutMs past what a timer can hold', () => {
  it.each([2 ** 31, 30 * 24 * 3600 * 1000, Number.MAX_SAFE_INTEGER])('timeoutMs %d: the hook is waited for, not timed out at once', async (timeoutMs) => {
    const ran: string[] = [];
    const tool = defineTool({ name: 'look', description: 'Looks.', inputSchema: z.object({}), readOnly: true, execute: () => (ran.push('look'), 'seen') });
    const entered = deferred();
    const answer = deferred<{ decision: 'allow' }>();
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('look', {}, 't1')), 'Done.']),
      tools: [tool],
      hooks: { PreToolUse: [{ timeoutMs, hook: () => (entered.resolve(), answer.promise) }] },
    });
    const errors: unknown[] = [];
    agent.on('error', (event) => errors.push(event.error));
    const run = agent.run('go');
    await entered.promise;
    // Longer than the 1 ms an overflowed timer waits: a timeout would have fired by now.
    await new Promise((resolve) => setTimeout(resolve, 20));
    answer.resolve({ decision: 'allow' });
    const result = await run.result;
    expect(errors).toEqual([]);
    expect(ran).toEqual(['look']);
    expect(result.status).toBe('completed');
  });
});
