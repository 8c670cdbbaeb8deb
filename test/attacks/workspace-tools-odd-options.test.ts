// Odd options a host may pass to workspaceTools: each is refused with a ConfigurationError naming
// it, never taken silently for something else.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';

const work = mkdtempSync(join(tmpdir(), 'agent-harness-odd-options-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function refusal(options: Record<string, unknown>): string {
  try {
    workspaceTools({ cwd: work, ...options } as Parameters<typeof workspaceTools>[0]);
  } catch (error) {
    expect(ConfigurationError.isInstance(error), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`workspaceTools accepted ${JSON.stringify(Object.keys(options))}`);
}

describe('workspaceTools options a host got wrong', () => {
  it('checkpoints given as a function (the README: true, false or { maxBytes, maxFileBytes }) is refused; before, it kept the default checkpoints of every file', () => {
    expect(refusal({ checkpoints: () => false })).toMatch(/checkpoints/);
  });

  it.each<[string, Record<string, unknown>]>([
    ['inheritEnv with a pattern whose star is not at the end', { inheritEnv: ['AWS_*_KEY'] }],
    ['inheritEnv with an empty name', { inheritEnv: [''] }],
    ['inheritEnv given as a string', { inheritEnv: 'NODE_OPTIONS' }],
    ['env with a number value', { env: { CI: 1 } }],
    ['checkpoints with a zero bound', { checkpoints: { maxBytes: 0 } }],
    ['checkpoints with an unknown key', { checkpoints: { maxByte: 1 } }],
  ])('%s is refused, naming the option', (_what, options) => {
    expect(refusal(options)).toMatch(new RegExp(Object.keys(options)[0]!));
  });

  it('the README values are accepted', () => {
    expect(() => workspaceTools({ cwd: work, inheritEnv: ['NODE_OPTIONS', 'npm_config_*'], env: { CI: '1', HOME: undefined }, checkpoints: { maxBytes: 8_388_608, maxFileBytes: 1 } })).not.toThrow();
    expect(() => workspaceTools({ cwd: work, checkpoints: false })).not.toThrow();
  });
});
