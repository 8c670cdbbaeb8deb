import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { OUTSIDE_CHECK_KEY_PREFIX, READ_STATE_KEY_PREFIX, recordOutsideCheck, setReadRecord, takeOutsideCheck } from '../../../src/node/workspace-tools/tool-state-records.js';
import { callTool, fakeAgent, makeTempDir, toolNamed } from './helpers.js';

let work: string;
let extra: string;

beforeEach(async () => {
  work = await makeTempDir('ws-tools-');
  extra = await makeTempDir('ws-extra-');
  await fs.writeFile(path.join(extra, 'shared.txt'), 'shared\n');
});

afterEach(async () => {
  await fs.rm(work, { recursive: true, force: true });
  await fs.rm(extra, { recursive: true, force: true });
});

describe('workspaceTools', () => {
  it('returns the six tools in a fixed order, with JSON schemas in Claude Code shapes', () => {
    const tools = workspaceTools({ cwd: work });
    expect(tools.map((tool) => tool.name)).toEqual(['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash']);
    const properties = (name: string) => Object.keys((toolNamed(tools, name).jsonSchema.properties ?? {}) as object);
    expect(properties('Read')).toEqual(['file_path', 'offset', 'limit']);
    expect(properties('Write')).toEqual(['file_path', 'content']);
    expect(properties('Edit')).toEqual(['file_path', 'old_string', 'new_string', 'replace_all']);
    expect(properties('Glob')).toEqual(['pattern', 'path']);
    expect(properties('Grep')).toEqual(['pattern', 'path', 'glob', 'output_mode', '-i', '-n', '-A', '-B', '-C', 'head_limit']);
    expect(properties('Bash')).toEqual(['command', 'timeout', 'description']);
  });

  it('creates a subset, still in the fixed order', () => {
    expect(workspaceTools({ cwd: work, tools: ['Grep', 'Read', 'Glob'] }).map((tool) => tool.name)).toEqual(['Read', 'Glob', 'Grep']);
  });

  it('treats additional directories as inside the workspace', async () => {
    const tools = workspaceTools({ cwd: work, additionalDirectories: [extra] });
    const result = await callTool(toolNamed(tools, 'Read'), { file_path: path.join(extra, 'shared.txt') });
    expect(result).toMatchObject({ stage: 'execute', text: '     1\tshared' });
    const without = await callTool(toolNamed(workspaceTools({ cwd: work }), 'Read'), { file_path: path.join(extra, 'shared.txt') });
    expect(without.check).toMatchObject({ behavior: 'ask', blockedPath: path.join(extra, 'shared.txt') });
  });

  it('rejects bad options with a ConfigurationError', () => {
    expect(() => workspaceTools({ cwd: path.join(work, 'missing') })).toThrow(ConfigurationError);
    expect(() => workspaceTools({ cwd: '' })).toThrow(/`cwd` must be a non-empty string/);
    expect(() => workspaceTools({ cwd: work, additionalDirectories: [path.join(work, 'nope')] })).toThrow(/does not exist/);
    expect(() => workspaceTools({ cwd: work, bashTimeoutMs: 600_001 })).toThrow(/up to 600000/);
    expect(() => workspaceTools({ cwd: work, maxReadBytes: 0 })).toThrow(/maxReadBytes/);
  });
});

describe('tool state records', () => {
  it('use one JSON key per file and per call, and take an outside check once', () => {
    const agent = fakeAgent();
    recordOutsideCheck(agent.toolState, 'toolu_1', '/x/1');
    expect(agent.state.get(`${OUTSIDE_CHECK_KEY_PREFIX}toolu_1`)).toBe('/x/1');
    expect(takeOutsideCheck(agent.toolState, 'toolu_1')).toBe('/x/1');
    expect(takeOutsideCheck(agent.toolState, 'toolu_1')).toBeUndefined();
    setReadRecord(agent.toolState, '/a', { mtimeMs: 1, sha256: 'abc' });
    expect(agent.state.get(`${READ_STATE_KEY_PREFIX}/a`)).toEqual({ mtimeMs: 1, sha256: 'abc' });
  });
});
