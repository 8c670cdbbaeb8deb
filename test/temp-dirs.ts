import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Makes temporary folders for one test file and removes them after its last test: call it at the
 * top level of the file (it registers an `afterAll`). Tests that kill processes writing into a
 * folder leave it behind otherwise, hundreds per run of the suite.
 * @returns A function making a folder under the system's temporary folder, named from `prefix`.
 */
export function tempDirs(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
