import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The README's TypeScript blocks, in order. */
function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

describe('README', () => {
  it('has the two commands, and every TypeScript block type-checks against the package', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('npm install && npm run demo');
    expect(readme).toMatch(/```sh\nnpm test\n```/);
    // What to install, and the command the missing-SDK error names.
    expect(readme).toMatch(/## Install\n\n```sh\nnpm install agent-harness zod @anthropic-ai\/sdk\n```/);
    expect(readme).toContain('`npm install @anthropic-ai/sdk`');
    const blocks = tsBlocks(readme);
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    // Compiled where the package resolves by name (tsconfig paths), each block its own module.
    const dir = join(root, 'temp', 'readme-blocks');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    blocks.forEach((block, index) => writeFileSync(join(dir, `block-${index + 1}.ts`), `${block}\nexport {};\n`));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true, noUnusedLocals: false }, include: ['*.ts'] }),
    );
    let output = '';
    try {
      execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: root, encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 120_000);
});
