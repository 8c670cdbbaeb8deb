export type { Skill } from './skill.js';
export { defineSkill, skillProblem, type DefineSkillOptions } from './define-skill.js';
export { createSkillTool, skillListing, SKILL_TOOL_NAME } from './skill-tool.js';
