import { lstat, mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isLinkRefusal, readRegularFile } from './fs/read-regular-file.js';
import { writeFileAtomically } from './fs/write-file-atomically.js';
import { checkOptions, isNonEmptyString, required } from '../options/index.js';
import { assertPlanName } from '../plan/plan-name.js';
import type { PlanStore } from '../plan/plan-store.js';

/** Options of {@link filePlanStore}. */
export interface FilePlanStoreOptions {
  /**
   * The directory plans are written to, one `.md` file per plan. Created on the first write.
   * Nothing is ever written outside it; there is no default, so nothing lands in a home directory
   * unless the host points there (e.g. `~/.claude/plans` to share Claude Code's plans).
   */
  dir: string;
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * A plan store backed by a directory: each plan is the file `{dir}/{name}`. Writes are atomic
 * (a temporary file in the same directory, then a rename), so a reader never sees half a plan.
 * Temporary files are named `.tmp-<hex>`; like every dot file, `list()` skips them. A name held
 * by anything but a regular file (a symbolic link, a FIFO, a directory) is listed by neither
 * `list()` nor read by `read()`, which is never followed out of the directory nor left waiting.
 * @throws ConfigurationError when `dir` is missing, and (from its methods) for a plan name with
 * a path separator, `..`, a leading dot, or more than 255 UTF-8 bytes.
 * @example
 * const store = filePlanStore({ dir: path.join(process.cwd(), '.plans') });
 * await store.write('quiet-copper-lantern.md', '# Plan\n...');
 */
export function filePlanStore(options: FilePlanStoreOptions): PlanStore {
  checkOptions<FilePlanStoreOptions>(options, { dir: required(isNonEmptyString) }, { owner: 'filePlanStore', usage: 'filePlanStore({ dir: "./.plans" })' });
  const dir = resolve(options.dir);
  const pathOf = (name: string): string => {
    assertPlanName(name);
    return join(dir, name);
  };

  return {
    async read(name) {
      try {
        return await readRegularFile(pathOf(name));
      } catch (error) {
        // A link is no plan (list() skips it too): followed, it could show any file of the machine as one.
        if (isLinkRefusal(error)) return undefined;
        throw error;
      }
    },

    async write(name, text, writeOptions) {
      const target = pathOf(name);
      await mkdir(dir, { recursive: true });
      if (!writeOptions?.ifAbsent) return writeFileAtomically(target, text);
      try {
        // Linked in place whole, never over anything already at the name.
        await writeFileAtomically(target, text, { exclusive: true });
        return true;
      } catch (error) {
        if ((error as { code?: unknown })?.code === 'EEXIST') return false;
        throw error;
      }
    },

    // Anything at the name holds it (a directory too): a new plan is never drawn onto it.
    async exists(name) {
      try {
        await lstat(pathOf(name));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },

    async list() {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (isNotFound(error)) return [];
        throw error;
      }
      // Temporary files start with a dot, which plan names never do.
      return entries
        .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
        .map((entry) => entry.name)
        .sort();
    },
  };
}
