import { describe, expect, it } from 'vitest';
import { ConfigurationError, memoryMemoryStore } from 'agent-harness';

/** The message memoryMemoryStore throws with `initial`, or undefined when it accepts it. */
function refusal(initial: unknown): string | undefined {
  try {
    memoryMemoryStore(initial as never);
    return undefined;
  } catch (error) {
    expect(ConfigurationError.isInstance(error), String(error)).toBe(true);
    return (error as Error).message;
  }
}

describe('memoryMemoryStore(initial)', () => {
  it.each([
    ['../outside.md', /not a path the memory tool could reach.*steps out/],
    ['notes/../../x.md', /steps out/],
    ['/notes.md', /empty name/],
    ['notes/', /no leading or trailing slash/],
    ['.hidden', /starts with a dot/],
    ['a\u0000b', /control character/],
    ['', /not a path the memory tool could reach/],
  ])('a path the model could never reach (%j) is refused, naming it', (path, message) => {
    const said = refusal({ [path]: 'text' });
    expect(said).toMatch(message);
    expect(said).toContain(JSON.stringify(path));
  });

  it('a text that is not a string, a file that is also a directory, and initial files that are not an object are refused', () => {
    expect(refusal({ 'notes.md': 42 })).toMatch(/"notes.md" must be a string of text, got 42/);
    expect(refusal({ 'notes.md': { text: 'x' } })).toMatch(/must be a string of text/);
    expect(refusal({ projects: 'a file', 'projects/plan.md': 'x' })).toMatch(/"projects" is given as a file and as the directory of "projects\/plan.md"/);
    expect(refusal('notes.md')).toMatch(/takes its initial files as an object/);
    expect(refusal([['notes.md', 'x']])).toMatch(/takes its initial files as an object/);
  });

  it('paths the memory tool gives a store are accepted, and read back through the store', async () => {
    const store = memoryMemoryStore({ 'notes.md': '# Notes', 'projects/plan.md': 'Plan', 'ünïcode/файл.md': 'ok' });
    expect(await store.readFile('projects/plan.md')).toBe('Plan');
    expect(await store.stat('projects')).toMatchObject({ kind: 'directory' });
    expect(store.files()).toEqual({ 'notes.md': '# Notes', 'projects/plan.md': 'Plan', 'ünïcode/файл.md': 'ok' });
    expect(refusal(undefined)).toBeUndefined();
  });
});
