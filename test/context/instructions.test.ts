import { describe, expect, it } from 'vitest';
import { findInstructionImports } from '../../src/context/instructions/find-instruction-imports.js';

describe('findInstructionImports', () => {
  it('finds @paths at line starts and after spaces, with escaped spaces and without trailing punctuation', () => {
    const text = '@AGENTS.md\nSee @docs/style.md, and @./notes/my\\ notes.md.\nAlso (@../shared/x.md)';
    expect(findInstructionImports(text).map((found) => found.path)).toEqual(['AGENTS.md', 'docs/style.md', './notes/my notes.md']);
    expect(findInstructionImports('Read @~/personal.md and @/etc/team.md').map((found) => found.path)).toEqual(['~/personal.md', '/etc/team.md']);
  });

  it('ignores mentions, e-mail addresses, code spans and fenced blocks', () => {
    const text = ['Ask @alice or @here.', 'Mail bob@example.com', 'Run `npm i @types/node`', '```', '@inside/fence.md', '```', '~~~~', '@also/inside.md', '~~~', 'still inside', '~~~~', '@after/fence.md'].join('\n');
    expect(findInstructionImports(text).map((found) => found.path)).toEqual(['after/fence.md']);
  });

  it('reports where each import is', () => {
    const text = 'one\ntwo @a/b.md';
    const [found] = findInstructionImports(text);
    expect(text.slice(found!.index)).toBe('@a/b.md');
  });
});
