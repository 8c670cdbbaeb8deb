import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { validateHooksConfig } from '../../src/hooks/validate-hooks-config.js';

const hook = () => ({});

describe('validateHooksConfig', () => {
  it('accepts valid configs and undefined', () => {
    expect(() => validateHooksConfig(undefined)).not.toThrow();
    expect(() =>
      validateHooksConfig({
        PreToolUse: [{ matcher: 'Write|Edit', hook, timeoutMs: 5 }, { hook }],
        PermissionRequest: [{ matcher: '*', hook }],
        Stop: [{ hook }],
        SessionEnd: undefined,
      }),
    ).not.toThrow();
  });

  it.each([
    [[], /hooks must be an object/],
    [{ PreToolUse: {} }, /hooks\.PreToolUse must be an array/],
    [{ PreToolUSE: [] }, /hooks\.PreToolUSE is not a hook event; did you mean PreToolUse\? Events: SessionStart, UserPromptSubmit, PreToolUse/],
    [{ Bogus: [] }, /hooks\.Bogus is not a hook event; use one of SessionStart, UserPromptSubmit, PreToolUse/],
    [{ PreToolUse: [{ hook, matchr: 'Write' }] }, /unknown key "matchr"; did you mean "matcher"\?/],
    [{ PreToolUse: [null] }, /hooks\.PreToolUse\[0\] must be an object/],
    [{ PreToolUse: [{ hook }, { hook: 'x' }] }, /hooks\.PreToolUse\[1\]\.hook must be a function/],
    [{ PreToolUse: [{ hook, matcher: '(' }] }, /hooks\.PreToolUse\[0\]\.matcher "\(" is not a valid regular expression/],
    [{ PreToolUse: [{ hook, matcher: 3 }] }, /hooks\.PreToolUse\[0\]\.matcher must be a regular expression/],
    [{ Stop: [{ hook, matcher: 'x' }] }, /hooks\.Stop\[0\]\.matcher: only tool events/],
    [{ Stop: [{ hook, timeoutMs: 0 }] }, /hooks\.Stop\[0\]\.timeoutMs must be a positive number/],
    [{ Stop: [{ hook, timeout: 10 }] }, /hooks\.Stop\[0\] has an unknown key "timeout"/],
  ])('rejects %j', (config, message) => {
    expect(() => validateHooksConfig(config)).toThrow(ConfigurationError);
    expect(() => validateHooksConfig(config)).toThrow(message);
  });
});
