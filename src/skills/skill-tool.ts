import { z } from 'zod/v4';
import { ConfigurationError } from '../errors/configuration-error.js';
import { builtOnFirstUse } from '../tools/built-on-first-use.js';
import { defineTool } from '../tools/define-tool.js';
import type { Tool } from '../tools/types.js';
import type { Skill } from './skill.js';

/** The `Skill` tool's name; rules `Skill(name)` match one skill. */
export const SKILL_TOOL_NAME = 'Skill';

const inputSchema = builtOnFirstUse(() =>
  z.object({
    skill: z.string().min(1).describe('The name of the skill to load, exactly as listed.'),
  }),
);

const DESCRIPTION = `Loads a skill: instructions for a kind of task, listed in the system prompt by name and description.
When a task matches a skill's description, call this tool with the skill's name before you start, then follow the instructions it returns. Load a skill once per conversation; its instructions stay in the conversation.`;

function loaded(skill: Skill): string {
  const files = skill.directory
    ? `\n\nThe skill's files are in ${skill.directory}. When the instructions refer to a file by a relative path, read it from there (only when you need it).`
    : '';
  const tools = skill.allowedTools?.length ? `\n\nTools this skill uses: ${skill.allowedTools.join(' ')}.` : '';
  return `<skill name="${skill.name}">\n${skill.instructions.trim()}\n</skill>${files}${tools}`;
}

/**
 * The built-in `Skill` tool: answers with a skill's instructions (and where its files are).
 * Read-only, so it runs in every mode; a rule `Skill(name)` allows, asks or denies one skill.
 * @throws ConfigurationError when two skills share a name.
 */
export function createSkillTool(skills: readonly Skill[]): Tool<z.infer<ReturnType<typeof inputSchema>>> {
  const byName = new Map<string, Skill>();
  for (const skill of skills) {
    if (byName.has(skill.name)) throw new ConfigurationError(`createAgent: two skills are named "${skill.name}"; skill names must be unique.`);
    byName.set(skill.name, skill);
  }
  return defineTool({
    name: SKILL_TOOL_NAME,
    description: DESCRIPTION,
    inputSchema: inputSchema(),
    readOnly: true,
    ruleTarget: { field: 'skill', kind: 'command' },
    validateInput: ({ input }) =>
      byName.has(input.skill) ? undefined : `There is no skill named "${input.skill}". The skills are: ${[...byName.keys()].join(', ')}.`,
    execute: ({ input }) => loaded(byName.get(input.skill)!),
  });
}

/**
 * The system prompt's list of skills (names and descriptions only), fixed for the session.
 * @returns undefined when there are no skills.
 */
export function skillListing(skills: readonly Skill[]): string | undefined {
  if (skills.length === 0) return undefined;
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ').trim()}`);
  return `Skills are available: each packages instructions for one kind of task. When a task matches a skill's description, call the ${SKILL_TOOL_NAME} tool with its name before you start, and follow its instructions.\n\n<skills>\n${lines.join('\n')}\n</skills>`;
}
