import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveRealPath } from './workspace-boundary.js';

/**
 * Resolves an absolute path the way the kernel does: component by component, following a
 * symbolic link before a later `..` is applied (`inner/self/../x` with `self -> /work` is
 * `/x`, not `inner/x`). Components after the first missing one are joined lexically.
 * @param absolutePath - an absolute path, not normalized (it may contain `.` and `..`).
 */
export async function resolvePhysicalPath(absolutePath: string): Promise<string> {
  let current = '/';
  let missing = false;
  for (const segment of absolutePath.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, segment);
    if (missing) {
      current = next;
      continue;
    }
    current = await resolveRealPath(next);
    missing = await fs.lstat(current).then(() => false, () => true);
  }
  return current;
}
