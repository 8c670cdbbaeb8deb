// The Bash tool runs commands with a scrubbed environment (issue 10): the host's secrets never
// reach a command the model runs, unless the host hands them over on purpose.
import fs from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { bashEnvironment, DEFAULT_INHERITED_ENV, isInherited } from '../../../src/node/workspace-tools/bash-environment.js';
import { callTool, makeTempDir, toolNamed } from './helpers.js';

const SECRETS = {
  ANTHROPIC_API_KEY: 'sk-ant-test-secret-1',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-2',
  GITHUB_TOKEN: 'ghp-secret-3',
  SSH_AUTH_SOCK: '/tmp/agent.sock-secret-4',
  DATABASE_URL: 'postgres://user:secret-5@db',
};

let work: string;
const saved: Record<string, string | undefined> = {};
beforeEach(async () => {
  work = await makeTempDir('ws-env-');
  for (const [name, value] of Object.entries({ ...SECRETS, LC_ALL: 'C.UTF-8', NODE_OPTIONS: '--no-warnings', AWS_REGION: 'eu-west-1' })) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterEach(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await fs.rm(work, { recursive: true, force: true });
});

/** Runs `env` in a real child process through the Bash tool (approved) and parses what it printed. */
async function childEnvironment(options: Parameters<typeof workspaceTools>[0]): Promise<Record<string, string>> {
  const bash = toolNamed(workspaceTools(options), 'Bash');
  const result = await callTool(bash, { command: 'env' }, { answer: () => true });
  expect(result.stage).toBe('execute');
  return Object.fromEntries(result.text.split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

describe('Bash environment', () => {
  it('a real child process sees no secret of the host, and keeps PATH, HOME and LC_*', async () => {
    const seen = await childEnvironment({ cwd: work });
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(seen[name], name).toBeUndefined();
      expect(Object.values(seen).join('\n')).not.toContain(value);
    }
    expect(seen.PATH).toBe(process.env.PATH);
    expect(seen.LC_ALL).toBe('C.UTF-8');
    expect(seen.GIT_OPTIONAL_LOCKS).toBe('0');
    expect(seen.NODE_OPTIONS).toBeUndefined();
  });

  it('printenv of a secret prints nothing, even when the host approves it', async () => {
    const bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
    const result = await callTool(bash, { command: 'printenv ANTHROPIC_API_KEY; echo "[$ANTHROPIC_API_KEY]"; cat /proc/self/environ | tr "\\0" "\\n"' }, { answer: () => true });
    expect(result.text).not.toContain(SECRETS.ANTHROPIC_API_KEY);
    expect(result.text).toContain('[]');
  });

  it('inheritEnv passes named variables and PREFIX* patterns; env sets and removes', async () => {
    const seen = await childEnvironment({ cwd: work, inheritEnv: ['NODE_OPTIONS', 'AWS_*'], env: { EXTRA: 'x', LC_ALL: undefined } });
    expect(seen.NODE_OPTIONS).toBe('--no-warnings');
    expect(seen.AWS_REGION).toBe('eu-west-1');
    expect(seen.AWS_SECRET_ACCESS_KEY).toBe(SECRETS.AWS_SECRET_ACCESS_KEY);
    expect(seen.EXTRA).toBe('x');
    expect(seen.LC_ALL).toBeUndefined();
    expect(seen.ANTHROPIC_API_KEY).toBeUndefined();
  });

  it('inheritEnv: ["*"] passes everything (the old behaviour, on request only)', async () => {
    const seen = await childEnvironment({ cwd: work, inheritEnv: ['*'] });
    expect(seen.ANTHROPIC_API_KEY).toBe(SECRETS.ANTHROPIC_API_KEY);
  });

  it('the environment is taken when the tools are created: a secret set later does not leak', async () => {
    const bash = toolNamed(workspaceTools({ cwd: work }), 'Bash');
    process.env.LATE_SECRET = 'late-secret-6';
    try {
      const result = await callTool(bash, { command: 'env' }, { answer: () => true });
      expect(result.text).not.toContain('late-secret-6');
    } finally {
      delete process.env.LATE_SECRET;
    }
  });

  it('property: only allow-listed names (and explicit env) ever come out of bashEnvironment', () => {
    const name = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,12}$/);
    fc.assert(
      fc.property(fc.dictionary(name, fc.string()), fc.array(fc.constantFrom('NODE_*', 'AWS_REGION', 'X'), { maxLength: 3 }), (hostEnv, inheritEnv) => {
        const out = bashEnvironment({ hostEnv, inheritEnv, env: {} });
        return Object.keys(out).every((key) => key === 'GIT_OPTIONAL_LOCKS' || isInherited(key, [...DEFAULT_INHERITED_ENV, ...inheritEnv]));
      }),
    );
  });

  it('the default allow-list holds no credential-looking name', () => {
    for (const name of DEFAULT_INHERITED_ENV) expect(name).not.toMatch(/KEY|TOKEN|SECRET|PASS|AUTH|CRED|SOCK/);
    expect(path.isAbsolute(work)).toBe(true);
  });
});
