import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryMemoryStore } from '../../../src/context/memory/memory-memory-store.js';
import { MAX_MEMORY_PATH_BYTES, parseMemoryPath } from '../../../src/context/memory/memory-path.js';
import { MEMORY_TOOL_TYPE, memoryTool } from '../../../src/context/memory/memory-tool.js';
import { hostilePaths, memoryToolContract } from './memory-tool-contract.js';

memoryToolContract('memoryMemoryStore', () => memoryMemoryStore());

describe('the memory tool definition', () => {
  it('is the API memory tool: name memory, type memory_20250818; view reads, the rest edits', () => {
    const tool = memoryTool({ store: memoryMemoryStore() });
    expect(tool.name).toBe('memory');
    expect(tool.providerType).toBe(MEMORY_TOOL_TYPE);
    expect(tool.readOnly).toBe(false);
    expect(tool.kind).toBe('edit');
    expect(tool.isReadOnlyCall?.({ command: 'view', path: '/memories' } as never)).toBe(true);
    expect(tool.isReadOnlyCall?.({ command: 'create', path: '/memories/a', file_text: '' } as never)).toBe(false);
    expect(tool.jsonSchema.type).toBe('object');
  });
});

describe('parseMemoryPath', () => {
  it('accepts the root, nested names, one trailing slash and non-ASCII names', () => {
    expect(parseMemoryPath('/memories')).toEqual({ segments: [], relative: '', display: '/memories' });
    expect(parseMemoryPath('/memories/')).toMatchObject({ relative: '' });
    expect(parseMemoryPath('/memories/projects/notes.md')).toMatchObject({ relative: 'projects/notes.md', display: '/memories/projects/notes.md' });
    expect(parseMemoryPath('/memories/notes/')).toMatchObject({ relative: 'notes' });
    expect(parseMemoryPath('/memories/résumé 2026.md')).toMatchObject({ relative: 'résumé 2026.md' });
    expect(parseMemoryPath('/memories/100% sure.md')).toMatchObject({ relative: '100% sure.md' });
  });

  it('refuses each hostile path with a sentence that says why', () => {
    for (const path of hostilePaths) expect(parseMemoryPath(path), path).toHaveProperty('problem', expect.stringContaining('is not allowed'));
    expect(parseMemoryPath(42)).toEqual({ problem: 'A memory path must be a string, got number.' });
    expect((parseMemoryPath(`/memories/${'é'.repeat(600)}`) as { problem: string }).problem).toContain(`longer than ${MAX_MEMORY_PATH_BYTES} bytes`);
  });

  it('never yields a name that is empty, a dot name, or holds a separator (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom('..', '.', '', '%2e', '\\', '\uff0e\uff0e', '\u2024\u2024')), { maxLength: 6 }), (names) => {
        const parsed = parseMemoryPath(`/memories/${names.join('/')}`);
        if ('problem' in parsed) return;
        for (const name of parsed.segments) {
          expect(name).not.toBe('');
          expect(name.normalize('NFKC')).not.toMatch(/^\.\.?$|[/\\]/);
          expect(name.startsWith('.')).toBe(false);
        }
        expect(parsed.display.startsWith('/memories')).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
