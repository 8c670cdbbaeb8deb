import os from 'node:os';
import path from 'node:path';
import type { WorkspaceBoundary } from './workspace-boundary.js';
import { realPathSync } from './real-path-sync.js';

/** `target` relative to `root` when it lies inside it (`''` for the root itself), else `undefined`. */
function within(root: string, target: string): string | undefined {
  const relative = path.relative(root, target);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/**
 * The other spellings of a path argument for deny and ask rules: its real path, absolute and
 * relative to each workspace root it lies in, and from the home directory (`~/.ssh/id_rsa`)
 * when it lies there. So `Write(secrets/**)` also holds for `alias/new.txt` when `alias` links
 * to `secrets`, `Read(/home/alice/.ssh/**)` for `~/.ssh/id_rsa`, `Read(~/.ssh/**)` for
 * `/home/alice/.ssh/id_rsa`, and absolute paths are matched when the agent has no `cwd`.
 */
export function ruleAliases(boundary: WorkspaceBoundary, value: string): string[] {
  // Where the tools will look: `~` is the home directory (see WorkspaceBoundary.lexical).
  const lexical = boundary.lexical(value);
  const real = realPathSync(lexical);
  const aliases = [real];
  if (lexical !== real) aliases.push(lexical);
  for (const root of boundary.roots) {
    const relative = within(root, real);
    if (relative) aliases.push(relative);
  }
  const home = os.homedir();
  for (const homeRoot of new Set([home, realPathSync(home)])) {
    for (const spelling of new Set([lexical, real])) {
      const relative = within(homeRoot, spelling);
      if (relative !== undefined) aliases.push(relative === '' ? '~' : `~/${relative}`);
    }
  }
  return [...new Set(aliases)];
}
