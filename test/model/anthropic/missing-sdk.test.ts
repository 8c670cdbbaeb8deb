import { describe, expect, it, vi } from 'vitest';
import { createAgent } from '../../../src/agent/create-agent.js';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { ModelError } from '../../../src/errors/model-error.js';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';

// A host that installed agent-harness without the optional peer: the SDK's dynamic import fails.
vi.mock('@anthropic-ai/sdk', () => {
  throw new Error("Cannot find package '@anthropic-ai/sdk' imported from agent-harness");
});

describe('anthropicModel without @anthropic-ai/sdk installed', () => {
  it('fails the model call at once with a ConfigurationError naming the install command', async () => {
    const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test' });
    const failure = await (async () => {
      for await (const event of model.stream({ system: [], tools: [], messages: [{ role: 'user', content: 'hi' }] })) void event;
    })().catch((error: unknown) => error);
    expect(ConfigurationError.isInstance(failure)).toBe(true);
    expect(ModelError.isInstance(failure)).toBe(false);
    expect((failure as Error).message).toContain('npm install @anthropic-ai/sdk');
    expect((failure as Error).cause).toBeInstanceOf(Error); // the import's own error, kept
  });

  it('ends the run with that error, not retried as a broken stream', async () => {
    const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test' }), maxStreamRetries: 3 });
    const errors: Array<{ error: Error; fatal: boolean }> = [];
    agent.on('error', (event) => errors.push(event));
    const retries: unknown[] = [];
    agent.on('stream-retry', (event) => retries.push(event));
    const result = await agent.run('hi').result;
    expect(result.status).toBe('error');
    expect(ConfigurationError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/^anthropicModel\(\) needs the @anthropic-ai\/sdk package/);
    // A retry announces itself with a stream-retry event first: there is none, and no other report.
    expect(retries).toEqual([]);
    expect(errors.filter((event) => !event.fatal)).toEqual([]);
  });
});
