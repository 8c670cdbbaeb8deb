// JSON.stringify of an Error leaves its message out: every agent-harness error writes its name,
// code, message, own fields and cause, so a host that answers with it or logs it as JSON keeps
// the sentence that says what went wrong.
import { describe, expect, it } from 'vitest';
import { AgentHarnessError, ConfigurationError, ModelError, SessionConflictError } from 'agent-harness';

describe('AgentHarnessError.toJSON', () => {
  it('writes the name, code, message and the error\'s own fields', () => {
    const error = new SessionConflictError({ sessionId: 's1', expectedRevision: 3, actualRevision: 5 });
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json).toMatchObject({ name: 'SessionConflictError', code: 'session-conflict', sessionId: 's1', expectedRevision: 3, actualRevision: 5 });
    expect(json.message).toBe(error.message);
    expect(JSON.parse(JSON.stringify(new ConfigurationError('Bad option.')))).toEqual({ name: 'ConfigurationError', code: 'configuration', message: 'Bad option.' });
  });

  it('writes a cause by its name, message and code, and a cause that cannot be written as text', () => {
    const io = Object.assign(new Error('disk full'), { code: 'ENOSPC', path: '/secret/place' });
    const json = JSON.parse(JSON.stringify(new ConfigurationError('Could not save.', { cause: io }))) as { cause: unknown };
    expect(json.cause).toEqual({ name: 'Error', message: 'disk full', code: 'ENOSPC' });
    const nested = JSON.parse(JSON.stringify(new ConfigurationError('Outer.', { cause: new ConfigurationError('Inner.') }))) as { cause: unknown };
    expect(nested.cause).toEqual({ name: 'ConfigurationError', code: 'configuration', message: 'Inner.' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => JSON.stringify(new ConfigurationError('Cyclic cause.', { cause: cyclic }))).not.toThrow();
    expect(JSON.parse(JSON.stringify(new ConfigurationError('Odd cause.', { cause: Object.create(null) }))).cause).toBe('a thrown object with no text form');
  });

  it('holds for every error class, the message included', () => {
    const error = new ModelError('Overloaded', { status: 529, retryable: true, requestId: 'req_1' });
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(AgentHarnessError.isInstance(error)).toBe(true);
    expect(json).toMatchObject({ name: 'ModelError', code: error.code, message: 'Overloaded', status: 529, retryable: true, requestId: 'req_1' });
  });
});
