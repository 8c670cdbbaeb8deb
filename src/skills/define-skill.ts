import { SkillFormatError } from '../errors/skill-format-error.js';
import type { Skill } from './skill.js';

/** What the Agent Skills format allows in a name: lowercase letters and digits in hyphen-joined runs. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const MAX_COMPATIBILITY = 500;

/** Options of {@link defineSkill}: a {@link Skill}. */
export type DefineSkillOptions = Skill;

/**
 * The problem with a skill's fields, by the Agent Skills format's rules, or undefined.
 * @param source - where the skill comes from, for the message.
 */
export function skillProblem(skill: Partial<Skill>, source: string): string | undefined {
  const { name, description } = skill;
  if (name !== undefined && name !== null && typeof name !== 'string') return `${source} has the name ${quoted(name)}, which is a ${typeof name}; a skill name is a string, e.g. "house-style".`;
  if (typeof name !== 'string' || name === '') return `${source} has no name; add one, e.g. name: house-style.`;
  if (name.length > MAX_NAME || !NAME.test(name)) {
    return `${source} has the name ${quoted(name)}; a skill name is 1-${MAX_NAME} lowercase letters, digits and hyphens, not starting or ending with a hyphen and without "--", e.g. "house-style".`;
  }
  if (description !== undefined && description !== null && typeof description !== 'string') {
    return `${source} (skill "${name}") has a description that is ${typeof description === 'object' ? 'an object' : `a ${typeof description}`}, not a string; give the text that says what the skill does and when to use it.`;
  }
  if (typeof description !== 'string' || description.trim() === '') {
    return `${source} (skill "${name}") has no description; add one that says what the skill does and when to use it.`;
  }
  if (description.length > MAX_DESCRIPTION) {
    return `${source} (skill "${name}") has a description of ${description.length} characters; the limit is ${MAX_DESCRIPTION}. Move the details into the instructions.`;
  }
  if (typeof skill.instructions !== 'string') return `${source} (skill "${name}") has no instructions; give the body as a string.`;
  if (skill.compatibility !== undefined && (typeof skill.compatibility !== 'string' || skill.compatibility.length > MAX_COMPATIBILITY || skill.compatibility === '')) {
    return `${source} (skill "${name}") has a compatibility field that is not a string of 1-${MAX_COMPATIBILITY} characters.`;
  }
  if (skill.allowedTools !== undefined && !(Array.isArray(skill.allowedTools) && skill.allowedTools.every((rule) => typeof rule === 'string'))) {
    return `${source} (skill "${name}") has allowed tools that are not a list of rule strings such as "Bash(git:*)".`;
  }
  return undefined;
}

/**
 * A skill made in code (in any JavaScript runtime); `loadSkills(dir)` of `agent-harness/node`
 * reads them from folders.
 * @throws SkillFormatError naming the field that breaks the Agent Skills format.
 * @example
 * const houseStyle = defineSkill({ name: 'house-style', description: 'Our editorial style. Use when drafting.', instructions: '# House style\n- Short sentences.' });
 */
export function defineSkill(options: DefineSkillOptions): Skill {
  const source = `The skill ${quoted(options?.name ?? '(unnamed)')}`;
  const problem = skillProblem(options ?? {}, source);
  if (problem) throw new SkillFormatError(problem, { source: options?.name ?? '(unnamed)' });
  return {
    ...options,
    ...(options.allowedTools ? { allowedTools: [...options.allowedTools] } : {}),
    ...(options.metadata ? { metadata: { ...options.metadata } } : {}),
  };
}

/** A value for a message: its JSON, or what it is when JSON cannot write it (a bigint, a cycle). */
function quoted(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return `a ${typeof value} that JSON cannot write`;
  }
}
