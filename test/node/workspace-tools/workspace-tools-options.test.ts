// Every workspaceTools option is checked for type and value, with an error that names the bad
// value, what is accepted and, for a typo, the nearest accepted name (issue 10).
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { nearestName } from '../../../src/options/nearest-name.js';
import { makeTempDir } from './helpers.js';

let work: string;
beforeAll(async () => {
  work = await makeTempDir('ws-options-');
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

const bad: Array<[string, Record<string, unknown>, RegExp]> = [
  ['a misspelt tool', { tools: ['Red'] }, /`tools\[0\]` must be one of "Read", "Write", "Edit", "Glob", "Grep", "Bash", got the string "Red"\. Did you mean "Read"\?/],
  ['a lower-case tool', { tools: ['bash'] }, /"bash"\. Did you mean "Bash"/],
  ['a tool of another kind', { tools: ['WebFetch'] }, /`tools\[0\]` must be one of .*got the string "WebFetch"\.$/],
  ['tools as a string', { tools: 'Read' }, /`tools` must be an array of tool names, got the string "Read"/],
  ['a tool that is a number', { tools: [1] }, /`tools\[0\]` must be one of .*got 1\./],
  ['a misspelt option', { tool: ['Read'] }, /`tool` is not an option of workspaceTools; did you mean `tools`\?/],
  ['another misspelt option', { maxReadByte: 10 }, /`maxReadByte` is not an option of workspaceTools; did you mean `maxReadBytes`/],
  ['an unrelated option', { colour: 'red' }, /`colour` is not an option of workspaceTools\. Its options are: cwd/],
  ['a string limit', { maxReadBytes: '100' }, /`maxReadBytes` must be a positive integer, got the string "100"/],
  ['a fractional limit', { maxReadLines: 1.5 }, /`maxReadLines` must be a positive integer, got 1\.5/],
  ['a negative limit', { maxOutputChars: -1 }, /maxOutputChars/],
  ['NaN', { bashTimeoutMs: Number.NaN }, /bashTimeoutMs/],
  ['a timeout over the cap', { bashTimeoutMs: 600_001 }, /up to 600000/],
  ['an empty shell', { shell: '' }, /`shell` must be a non-empty string, got the string ""/],
  ['a shell that is not a string', { shell: ['/bin/bash'] }, /`shell` must be a non-empty string, got \["\/bin\/bash"\]/],
  ['env as an array', { env: ['A=1'] }, /`env` must be an object/],
  ['an env value that is a number', { env: { PORT: 3000 } }, /`env\.PORT` must be a string, or undefined to remove it, got 3000/],
  ['inheritEnv as a string', { inheritEnv: 'AWS_*' }, /`inheritEnv` must be an array/],
  ['an inheritEnv pattern with a glob inside', { inheritEnv: ['A*B'] }, /`inheritEnv\[0\]` must be a variable name or a PREFIX\* pattern.*got the string "A\*B"/],
  ['additionalDirectories as a string', { additionalDirectories: '/tmp' }, /`additionalDirectories` must be an array/],
];

describe('workspaceTools option validation', () => {
  it.each(bad)('%s', (_, options, message) => {
    let thrown: unknown;
    try {
      workspaceTools({ cwd: work, ...options } as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect((thrown as Error).message).toMatch(message);
  });

  it('cwd and the options object itself', () => {
    expect(() => workspaceTools(undefined as never)).toThrow(/takes an options object.*got undefined/);
    expect(() => workspaceTools({} as never)).toThrow(/`cwd` is required/);
    expect(() => workspaceTools({ cwd: 42 } as never)).toThrow(/got 42/);
  });

  it('good options pass, in any order of tools', () => {
    const tools = workspaceTools({ cwd: work, tools: ['Bash', 'Read'], inheritEnv: ['NODE_*', '*', 'X_1'], env: { A: '1', B: undefined }, shell: '/bin/sh' });
    expect(tools.map((tool) => tool.name)).toEqual(['Read', 'Bash']);
  });

  it('nearestName suggests only likely typos', () => {
    expect(nearestName('Red', ['Read', 'Write'])).toBe('Read');
    expect(nearestName('Grpe', ['Glob', 'Grep'])).toBe('Grep');
    expect(nearestName('Telescope', ['Read', 'Write'])).toBeUndefined();
    expect(nearestName('', ['Read'])).toBeUndefined();
  });
});
