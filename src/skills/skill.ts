/**
 * A skill: instructions for one kind of task, with any files they refer to, in the Agent Skills
 * format (a folder with `SKILL.md`). Only `name` and `description` sit in the system prompt; the
 * `Skill` tool loads the instructions when the model asks for them.
 */
export interface Skill {
  /** 1-64 lowercase letters, digits and single hyphens, e.g. `house-style`. */
  readonly name: string;
  /** What the skill does and when to use it (1-1024 characters); the model chooses skills by it. */
  readonly description: string;
  /** The instructions (the Markdown body of `SKILL.md`). */
  readonly instructions: string;
  /**
   * The skill's folder (absolute), when it has one: the files its instructions refer to, by
   * paths relative to it, are read from there when the model reads them.
   */
  readonly directory?: string;
  /**
   * Tools the skill says it needs, as permission rules (`allowed-tools`, e.g. `Bash(git:*) Read`).
   * Experimental in the format; not applied by the agent (the host may add them as rules).
   */
  readonly allowedTools?: readonly string[];
  /** The license (a name, or a file of the skill). */
  readonly license?: string;
  /** Environment requirements, as the skill states them. */
  readonly compatibility?: string;
  /** Further properties, as string pairs. */
  readonly metadata?: Readonly<Record<string, string>>;
}
