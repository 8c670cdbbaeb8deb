import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool } from 'agent-harness';
import { Toolbox } from '../../src/tool-sources/toolbox.js';

const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: () => 'ok' });

describe('Toolbox definitions', () => {
  it('shares one definition object between toolboxes, also for per-agent copies of a tool', () => {
    const first = new Toolbox({ tools: [read] });
    const second = new Toolbox({ tools: [{ ...read, execute: () => 'copy' }] });
    expect(second.definitions[0]).toBe(first.definitions[0]);
    expect(first.definitions[0]).toEqual({ name: 'read', description: 'Reads.', input_schema: read.jsonSchema });
  });

  it('gives a tool whose name, description or provider type differs its own definition', () => {
    const base = new Toolbox({ tools: [read] }).definitions[0];
    const renamed = new Toolbox({ tools: [{ ...read, name: 'read_file' }] }).definitions[0];
    const described = new Toolbox({ tools: [{ ...read, description: 'Reads a file.' }] }).definitions[0];
    const typed = new Toolbox({ tools: [{ ...read, providerType: 'memory_20250818' }] }).definitions[0];
    expect(renamed).toMatchObject({ name: 'read_file', description: 'Reads.' });
    expect(described).toMatchObject({ name: 'read', description: 'Reads a file.' });
    expect(typed).toMatchObject({ name: 'read', type: 'memory_20250818' });
    expect(new Set([base, renamed, described, typed]).size).toBe(4);
    // A tool changed after its definition was made does not get the stale one.
    const mutable = { ...read } as { -readonly [K in keyof Tool]: Tool[K] };
    expect(new Toolbox({ tools: [mutable as Tool] }).definitions[0]).toBe(base);
    mutable.description = 'Changed.';
    expect(new Toolbox({ tools: [mutable as Tool] }).definitions[0]).toMatchObject({ description: 'Changed.' });
  });

  it('passes a hand-made tool without a schema object through instead of failing on the cache', () => {
    const bare = { ...read, jsonSchema: undefined } as unknown as Tool;
    expect(() => new Toolbox({ tools: [bare] })).not.toThrow();
    expect(new Toolbox({ tools: [bare] }).definitions[0]).toMatchObject({ name: 'read', input_schema: undefined });
  });
});
