import fs from 'node:fs/promises';
import path from 'node:path';

async function lstatOrMissing(directory: string) {
  try {
    return await fs.lstat(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function refuse(directory: string, target: string, what: string): never {
  throw new Error(`${directory} ${what} now; refusing to create the directories of ${target} through it.`);
}

/**
 * Creates the missing directories of a real path (symbolic links resolved) one level at a time,
 * never through a symbolic link: every existing directory on the way must be a directory, not a
 * link (a real path has none), and each created one must be where it was meant to be. `fs.mkdir`
 * with `recursive` would follow a directory swapped for a link and create folders wherever it
 * leads. Left open: a swap between the check of a level and the creation of the next (Node has
 * no `mkdirat`); a directory created outside that way is removed again.
 * @param realDirectory - an absolute real path.
 * @param target - the file the directories are for, named in the error.
 * @throws Error naming the directory that is a link or not a directory now.
 */
export async function makeDirectories(realDirectory: string, target: string): Promise<void> {
  let current = path.parse(realDirectory).root;
  for (const segment of realDirectory.slice(current.length).split(path.sep)) {
    if (segment === '') continue;
    current = path.join(current, segment);
    let stat = await lstatOrMissing(current);
    if (stat === undefined) {
      try {
        await fs.mkdir(current);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      stat = await lstatOrMissing(current);
      if (stat?.isDirectory() && (await fs.realpath(current)) !== current) {
        // The parent was swapped for a link after it was checked: undo what was created there.
        await fs.rmdir(current).catch(() => undefined);
        refuse(path.dirname(current), target, 'leads elsewhere');
      }
    }
    if (stat === undefined) refuse(current, target, 'disappeared');
    if (stat.isSymbolicLink()) refuse(current, target, 'is a symbolic link');
    if (!stat.isDirectory()) refuse(current, target, 'is not a directory');
  }
}
