import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** Options of {@link SkillFormatError}. */
export interface SkillFormatErrorOptions extends AgentHarnessErrorOptions {
  /** The `SKILL.md` file, or the skill's name for a skill made in code. */
  source: string;
}

/** The `code` of a {@link SkillFormatError}. */
const CODE = 'skill-format';

/**
 * A skill does not follow the Agent Skills format: no `SKILL.md`, no YAML frontmatter, a missing
 * or malformed `name` or `description`, a name that differs from its folder's.
 */
export class SkillFormatError extends AgentHarnessError {
  static readonly code = CODE;
  /** The `SKILL.md` file, or the skill's name for a skill made in code. */
  readonly source: string;
  constructor(message: string, options: SkillFormatErrorOptions) {
    super(CODE, message, options);
    this.source = options.source;
  }
  static override isInstance = hasCode<SkillFormatError>(CODE);
}
