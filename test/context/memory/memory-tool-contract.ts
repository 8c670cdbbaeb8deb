import { describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../../src/context/memory/memory-store.js';
import { memoryTool } from '../../../src/context/memory/memory-tool.js';
import type { Tool, ToolAgentContext } from '../../../src/tools/types.js';

const agent: ToolAgentContext = { sessionId: 's', agentId: undefined, permissionMode: 'default', toolState: { get: () => undefined, set: () => {} } };

/** Runs one memory command as the loop would: parse, validate, execute. */
export async function run(tool: Tool, input: unknown): Promise<{ text: string; error: boolean }> {
  const parsed = tool.parseInput(input);
  if (!parsed.ok) return { text: parsed.issues.join('; '), error: true };
  const problem = await tool.validateInput?.({ input: parsed.value, toolUseId: 't', agent, signal: new AbortController().signal });
  if (problem) return { text: problem, error: true };
  const output = (await tool.execute({ input: parsed.value, toolUseId: 't', agent, signal: new AbortController().signal })) as string | { content: string; isError?: boolean };
  return typeof output === 'string' ? { text: output, error: false } : { text: output.content, error: output.isError === true };
}

/** The attacks every store must refuse, whatever is behind it. */
export const hostilePaths = [
  '/memories/../secret',
  '/memories/notes/../../etc/passwd',
  '/memories/./notes.md',
  '/etc/passwd',
  'memories/notes.md',
  '/memoriesX/notes.md',
  '/memories//notes.md',
  '/memories/%2e%2e/secret',
  '/memories/%2E%2e%2fsecret',
  '/memories/notes\u0000.md',
  '/memories/notes\n.md',
  '/memories\\..\\secret',
  '/memories/..\\secret',
  '/memories/C:secret',
  '/memories/\uff0e\uff0e/secret',
  '/memories/a\uff0fb',
  '/memories/.hidden',
  '/memories/name.',
  '/memories/name ',
  '/memories/CON',
  '/memories/nul.txt',
  `/memories/${'a'.repeat(256)}`,
  `/memories/${'a/'.repeat(600)}x`,
];

export function memoryToolContract(name: string, makeStore: () => Promise<MemoryStore> | MemoryStore) {
  describe(`the memory tool over ${name}`, () => {
    it('creates, views, edits, inserts, renames and deletes, with the API tool answers', async () => {
      const tool = memoryTool({ store: await makeStore() });
      expect(await run(tool, { command: 'create', path: '/memories/projects/report.md', file_text: 'Title\nDraft one\nEnd' })).toEqual({
        text: 'File created successfully at: /memories/projects/report.md',
        error: false,
      });
      const listing = await run(tool, { command: 'view', path: '/memories' });
      expect(listing.text.split('\n')[0]).toBe('Here\'re the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:');
      expect(listing.text).toMatch(/\t\/memories\/projects\/\n/);
      expect(listing.text).toMatch(/\d+B\t\/memories\/projects\/report\.md$/m);
      expect((await run(tool, { command: 'view', path: '/memories/projects/report.md' })).text).toBe(
        "Here's the content of /memories/projects/report.md with line numbers:\n     1\tTitle\n     2\tDraft one\n     3\tEnd",
      );
      expect((await run(tool, { command: 'view', path: '/memories/projects/report.md', view_range: [2, -1] })).text).toBe(
        "Here's the content of /memories/projects/report.md with line numbers:\n     2\tDraft one\n     3\tEnd",
      );
      const edited = await run(tool, { command: 'str_replace', path: '/memories/projects/report.md', old_str: 'Draft one', new_str: 'Final' });
      expect(edited.text).toContain('The memory file has been edited.');
      expect(edited.text).toContain('     2\tFinal');
      expect((await run(tool, { command: 'insert', path: '/memories/projects/report.md', insert_line: 0, insert_text: 'Header\n' })).text).toBe(
        'The file /memories/projects/report.md has been edited.',
      );
      expect((await run(tool, { command: 'rename', old_path: '/memories/projects', new_path: '/memories/archive/2026' })).text).toBe(
        'Successfully renamed /memories/projects to /memories/archive/2026',
      );
      expect((await run(tool, { command: 'view', path: '/memories/archive/2026/report.md' })).text).toContain('     1\tHeader\n     2\tTitle\n     3\tFinal\n     4\tEnd');
      expect((await run(tool, { command: 'delete', path: '/memories/archive' })).text).toBe('Successfully deleted /memories/archive');
      expect((await run(tool, { command: 'view', path: '/memories/archive/2026/report.md' })).error).toBe(true);
    });

    it('answers mistakes with errors the model can act on', async () => {
      const tool = memoryTool({ store: await makeStore(), maxFileChars: 50 });
      await run(tool, { command: 'create', path: '/memories/a.md', file_text: 'one\ntwo\none' });
      const cases: Array<[unknown, string]> = [
        [{ command: 'create', path: '/memories/a.md', file_text: 'x' }, 'File /memories/a.md already exists'],
        [{ command: 'create', path: '/memories', file_text: 'x' }, 'is the memory directory itself'],
        [{ command: 'create', path: '/memories/a.md/b.md', file_text: 'x' }, 'is a file, not a directory'],
        [{ command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(51) }, 'more than the limit of 50'],
        [{ command: 'view', path: '/memories/none.md' }, 'The path /memories/none.md does not exist. Please provide a valid path.'],
        [{ command: 'view', path: '/memories/a.md', view_range: [3, 2] }, 'Invalid `view_range`'],
        [{ command: 'view', path: '/memories/a.md', view_range: [0, 1] }, 'Invalid `view_range`'],
        [{ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'x' }, 'Multiple occurrences of old_str `one` in lines: 1, 3'],
        [{ command: 'str_replace', path: '/memories/a.md', old_str: 'three', new_str: 'x' }, 'did not appear verbatim in /memories/a.md'],
        [{ command: 'str_replace', path: '/memories/a.md', old_str: '', new_str: 'x' }, 'old_str is empty'],
        [{ command: 'str_replace', path: '/memories', old_str: 'a', new_str: 'b' }, 'The path /memories is not a file.'],
        [{ command: 'insert', path: '/memories/a.md', insert_line: 4, insert_text: 'x' }, 'Invalid `insert_line` parameter: 4. It should be within the range of lines of the file: [0, 3]'],
        [{ command: 'delete', path: '/memories' }, 'Cannot delete the /memories directory itself'],
        [{ command: 'delete', path: '/memories/none' }, 'The path /memories/none does not exist'],
        [{ command: 'rename', old_path: '/memories/none', new_path: '/memories/b.md' }, 'does not exist'],
        [{ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/a.md' }, 'into itself'],
        [{ command: 'rename', old_path: '/memories', new_path: '/memories/x' }, 'Cannot rename the /memories directory itself'],
        [{ command: 'create', path: '/memories/b.md' }, 'The create command needs file_text.'],
        [{ command: 'rename', old_path: '/memories/a.md' }, 'The rename command needs new_path.'],
        [{ command: 'format', path: '/memories' }, 'command'],
      ];
      for (const [input, message] of cases) {
        const answer = await run(tool, input);
        expect(answer.error, JSON.stringify(input)).toBe(true);
        expect(answer.text, JSON.stringify(input)).toContain(message);
      }
      await run(tool, { command: 'create', path: '/memories/b.md', file_text: 'b' });
      expect((await run(tool, { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' })).text).toContain('The destination /memories/b.md already exists');
      // Nothing above changed a.md.
      expect((await run(tool, { command: 'view', path: '/memories/a.md' })).text).toContain('     1\tone\n     2\ttwo\n     3\tone');
    });

    it('refuses every hostile path, for every command, and writes nothing', async () => {
      const store = await makeStore();
      const tool = memoryTool({ store });
      await run(tool, { command: 'create', path: '/memories/keep.md', file_text: 'kept' });
      for (const path of hostilePaths) {
        for (const input of [
          { command: 'view', path },
          { command: 'create', path, file_text: 'pwned' },
          { command: 'str_replace', path, old_str: 'kept', new_str: 'pwned' },
          { command: 'insert', path, insert_line: 0, insert_text: 'pwned' },
          { command: 'delete', path },
          { command: 'rename', old_path: '/memories/keep.md', new_path: path },
          { command: 'rename', old_path: path, new_path: '/memories/stolen.md' },
        ]) {
          const answer = await run(tool, input);
          expect(answer.error, `${JSON.stringify(input)} → ${answer.text}`).toBe(true);
          expect(answer.text).toContain('is not allowed');
        }
      }
      const listing = (await run(tool, { command: 'view', path: '/memories' })).text.split('\n').slice(1);
      expect(listing.map((line) => line.split('\t')[1])).toEqual(['/memories', '/memories/keep.md']);
      expect((await run(tool, { command: 'view', path: '/memories/keep.md' })).text).toContain('\tkept');
    });
  });
}

