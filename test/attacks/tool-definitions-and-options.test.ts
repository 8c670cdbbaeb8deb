// Attack class: tool definitions and options from a careless or hostile host. Every option's type
// and value is checked, with an error that names the option; nothing is coerced (a string "false"
// is not a falsy readOnly).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, defineTool } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { postgresSessionStore } from 'agent-harness/postgres';
import { redisSessionStore, redisPlanStore } from 'agent-harness/redis';

const valid = { name: 'tool', description: 'A tool.', inputSchema: z.object({}), execute: () => 'ok' };

describe('attack: defineTool refuses wrong option types and values', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['readOnly as the string "false"', { readOnly: 'false' }, /`readOnly`/],
    ['readOnly as 0', { readOnly: 0 }, /`readOnly`/],
    ['readOnly as null', { readOnly: null }, /`readOnly`/],
    ['kind unknown', { kind: 'delete' }, /`kind`/],
    ['kind as a number', { kind: 1 }, /`kind`/],
    ['concurrencySafe as "yes"', { concurrencySafe: 'yes' }, /`concurrencySafe`/],
    ['concurrencySafe as 1', { concurrencySafe: 1 }, /`concurrencySafe`/],
    ['execute not a function', { execute: 'run' }, /`execute`/],
    ['execute missing', { execute: undefined }, /`execute`/],
    ['description a number', { description: 5 }, /`description`/],
    ['name with a space', { name: 'my tool' }, /`name`|name/],
    ['name empty', { name: '' }, /`name`|name/],
    ['name 200 characters long', { name: 'x'.repeat(200) }, /`name`|name/],
    ['inputSchema a string', { inputSchema: 'object' }, /`inputSchema`/],
    ['inputSchema missing', { inputSchema: undefined }, /`inputSchema`/],
    ['an unknown option (readonly, lower case)', { readonly: true }, /`readonly`/],
    ['an unknown option (isReadOnly)', { isReadOnly: true }, /`isReadOnly`/],
    ['checkPermissions not a function', { checkPermissions: true }, /`checkPermissions`/],
    ['validateInput not a function', { validateInput: 'x' }, /`validateInput`/],
    ['display not a function', { display: 'card' }, /`display`/],
  ])('%s', (_name, change, message) => {
    const options = { ...valid, ...change };
    for (const key of Object.keys(change)) if (change[key] === undefined) delete (options as Record<string, unknown>)[key];
    expect(() => defineTool(options as never)).toThrow(ConfigurationError);
    expect(() => defineTool(options as never)).toThrow(message);
  });

  it('a valid definition still works (the attack table is not refusing everything)', () => {
    expect(defineTool({ ...valid, readOnly: true, kind: 'read', concurrencySafe: true }).name).toBe('tool');
  });
});

describe('attack: workspaceTools refuses wrong option types and values', () => {
  const cwd = process.cwd();
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['tools with a misspelled name', { tools: ['Red'] }, /`tools\[0\]`.*Read/],
    ['tools a string', { tools: 'Read' }, /`tools`/],
    ['tools with a lower-case name', { tools: ['bash'] }, /`tools\[0\]`/],
    ['cwd a number', { cwd: 5 }, /`cwd`/],
    ['cwd empty', { cwd: '' }, /`cwd`/],
    ['grepTimeoutMs negative', { grepTimeoutMs: -1 }, /`grepTimeoutMs`/],
    ['grepTimeoutMs a string', { grepTimeoutMs: '100' }, /`grepTimeoutMs`/],
    ['bashTimeoutMs zero', { bashTimeoutMs: 0 }, /`bashTimeoutMs`/],
    ['maxReadBytes NaN', { maxReadBytes: Number.NaN }, /`maxReadBytes`/],
    ['maxReadLines Infinity', { maxReadLines: Number.POSITIVE_INFINITY }, /`maxReadLines`/],
    ['maxOutputChars a float string', { maxOutputChars: '1e3' }, /`maxOutputChars`/],
    ['additionalDirectories a string', { additionalDirectories: '/tmp' }, /`additionalDirectories`/],
    ['readOnlyDirectories with a number', { readOnlyDirectories: [1] }, /`readOnlyDirectories\[0\]`/],
    ['env with a number value', { env: { A: 1 } }, /`env\.A`/],
    ['inheritEnv a string', { inheritEnv: 'PATH' }, /`inheritEnv`/],
    ['shell a number', { shell: 1 }, /`shell`/],
    ['an unknown option (timeout)', { timeout: 5 }, /`timeout`/],
  ])('%s', (_name, change, message) => {
    expect(() => workspaceTools({ cwd, ...change } as never)).toThrow(ConfigurationError);
    expect(() => workspaceTools({ cwd, ...change } as never)).toThrow(message);
  });
});

describe('attack: store options are strict', () => {
  const pool = { query: async () => ({ rows: [] }), connect: async () => ({}) };
  const client = { call: async () => null };
  it.each<[string, () => unknown, RegExp]>([
    ['postgresSessionStore with schemaName', () => postgresSessionStore({ pool, schemaName: 'x' } as never), /`schemaName`/],
    ['postgresSessionStore with migrate "no"', () => postgresSessionStore({ pool, migrate: 'no' } as never), /`migrate`/],
    ['postgresSessionStore with an empty schema', () => postgresSessionStore({ pool, schema: '' } as never), /`schema`/],
    ['redisSessionStore with prefix (not keyPrefix)', () => redisSessionStore({ client, prefix: 'x:' } as never), /`prefix`/],
    ['redisSessionStore with now not a function', () => redisSessionStore({ client, now: 5 } as never), /`now`/],
    ['redisPlanStore with keyPrefix a number', () => redisPlanStore({ client, keyPrefix: 5 } as never), /`keyPrefix`/],
  ])('%s', (_name, make, message) => {
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(message);
  });
});
