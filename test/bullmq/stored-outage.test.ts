import { describe, expect, it } from 'vitest';
import { McpConnectionError, ModelError } from 'agent-harness';
import { storedOutage } from '../../src/bullmq/stored-outage.js';

describe('storedOutage', () => {
  it('rebuilds a retryable model error and an MCP server down, with their messages', () => {
    const model = storedOutage({ code: 'model', message: 'HTTP 529 overloaded_error', retryable: true });
    expect(ModelError.isInstance(model) && model.retryable).toBe(true);
    expect(model!.message).toBe('HTTP 529 overloaded_error');
    const mcp = storedOutage({ code: 'mcp-connection', message: 'The approval "a" is for mcp__db__x, a tool of the MCP server "db", which is failed.' });
    expect(McpConnectionError.isInstance(mcp) && mcp.server).toBe('db');
  });

  it('is undefined for a failure no retry gets past, and for an end stored without its error', () => {
    expect(storedOutage({ code: 'model', message: 'HTTP 400' })).toBeUndefined();
    expect(storedOutage({ code: 'configuration', message: 'bad' })).toBeUndefined();
    expect(storedOutage({ code: 'session-write', message: 'disk full' })).toBeUndefined();
    expect(storedOutage(undefined)).toBeUndefined();
  });
});
