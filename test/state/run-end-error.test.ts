import { describe, expect, it } from 'vitest';
import { McpConnectionError, ModelError } from 'agent-harness';
import { runEndError } from '../../src/state/run-end-error.js';

describe('runEndError', () => {
  it('keeps the code, the message and whether a later attempt may get past it', () => {
    expect(runEndError(new ModelError('HTTP 529 overloaded_error', { retryable: true }))).toEqual({ code: 'model', message: 'HTTP 529 overloaded_error', retryable: true });
    expect(runEndError(new ModelError('HTTP 400 invalid_request_error', { retryable: false }))).toEqual({ code: 'model', message: 'HTTP 400 invalid_request_error' });
    expect(runEndError(new McpConnectionError('The MCP server "db" is failed.', { server: 'db' }))).toEqual({ code: 'mcp-connection', message: 'The MCP server "db" is failed.' });
  });

  it('gives an error without a code the code "error", and never takes a retryable that is not true', () => {
    const odd = Object.assign(new Error('boom'), { retryable: 'yes', code: 'ENOENT' });
    expect(runEndError(odd)).toEqual({ code: 'error', message: 'boom' });
  });

  it('cuts a long message to 1000 characters, never inside a surrogate pair', () => {
    const message = `${'a'.repeat(998)}😀${'b'.repeat(5000)}`;
    const kept = runEndError(new Error(message)).message;
    expect(kept.length).toBeLessThanOrEqual(1000);
    expect(kept.endsWith('…')).toBe(true);
    expect(kept).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
