import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../errors/configuration-error.js';
import { SkillFormatError } from '../errors/skill-format-error.js';
import type { Skill } from '../skills/index.js';
import { parseSkillFile } from './skills/parse-skill-file.js';
import { checkOptions, describeOptionValue, isFunction, oneOf, type OptionsSpec } from '../options/index.js';

/** The largest `SKILL.md` read: the format asks for instructions under 500 lines. */
const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/** Options of {@link loadSkills}. */
export interface LoadSkillsOptions {
  /**
   * A skill folder that breaks the format: `'throw'` rejects the whole load, `'skip'` leaves the
   * skill out and reports it to `onWarning`.
   * @default 'throw'
   */
  onInvalid?: 'throw' | 'skip';
  /**
   * Receives a sentence for every skill left out.
   * @default undefined
   */
  onWarning?: (message: string, error: SkillFormatError) => void;
}

const OPTIONS: OptionsSpec<LoadSkillsOptions> = {
  onInvalid: oneOf(['throw', 'skip']),
  onWarning: isFunction,
};

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}

async function readSkill(folder: string): Promise<Skill | undefined> {
  const file = path.join(folder, 'SKILL.md');
  let info;
  try {
    info = await stat(file);
  } catch {
    return undefined;
  }
  if (!info.isFile()) return undefined;
  if (info.size > MAX_SKILL_FILE_BYTES) {
    throw new SkillFormatError(`${file}: the file has ${info.size} bytes; keep SKILL.md short (under 500 lines) and move details into files it refers to.`, { source: file });
  }
  const directory = await realpath(folder);
  const skill = parseSkillFile(await readFile(file, 'utf8'), file, path.basename(folder));
  return { ...skill, directory };
}

/**
 * Reads skills from folders in the Agent Skills format: every subfolder of `dir` that holds a
 * `SKILL.md` (or `dir` itself, when it holds one) is a skill; its instructions are the file's
 * Markdown body and its `directory` the folder, whose other files the model reads when the
 * instructions refer to them. Sorted by name, so the system prompt's listing is the same on every
 * start. Pass the promise straight to `createAgent({ skills })`.
 * @throws ConfigurationError when `dir` is not a path string or not a directory, or an option is
 *   unknown or of the wrong type; SkillFormatError for a skill that
 *   breaks the format (unless `onInvalid: 'skip'`), or two skills of one name.
 * @example
 * const agent = createAgent({ model, skills: loadSkills('./skills'), tools: workspaceTools({ cwd, readOnlyDirectories: ['./skills'] }) });
 */
export async function loadSkills(dir: string, options: LoadSkillsOptions = {}): Promise<Skill[]> {
  if (typeof dir !== 'string' || dir === '') {
    throw new ConfigurationError(`loadSkills takes the path of the folder that holds the skill folders, as in loadSkills('./skills'), got ${describeOptionValue(dir)}.`);
  }
  checkOptions<LoadSkillsOptions>(options, OPTIONS, { owner: 'loadSkills', usage: "loadSkills('./skills', { onInvalid: 'skip' })" });
  const root = path.resolve(dir);
  if (!(await isDirectory(root))) throw new ConfigurationError(`loadSkills: ${JSON.stringify(dir)} is not a directory; pass the folder that holds the skill folders.`);
  const own = await readSkill(root);
  if (own) return [own];
  const entries = (await readdir(root, { withFileTypes: true })).filter((entry) => !entry.name.startsWith('.')).sort((a, b) => (a.name < b.name ? -1 : 1));
  const skills: Skill[] = [];
  for (const entry of entries) {
    const folder = path.join(root, entry.name);
    if (!(entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(folder))))) continue;
    try {
      const skill = await readSkill(folder);
      if (!skill) continue;
      const twin = skills.find((other) => other.name === skill.name);
      if (twin) throw new SkillFormatError(`${folder}: a skill named "${skill.name}" was already read from ${twin.directory}; skill names must be unique.`, { source: folder });
      skills.push(skill);
    } catch (error) {
      if (!SkillFormatError.isInstance(error) || options.onInvalid !== 'skip') throw error;
      options.onWarning?.(`The skill in ${folder} was left out: ${error.message}`, error);
    }
  }
  return skills;
}
