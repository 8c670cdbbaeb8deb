import { createRequire } from 'node:module';
import { SkillFormatError } from '../../errors/skill-format-error.js';
import { skillProblem, type Skill } from '../../skills/index.js';
import { argumentError } from '../../errors/argument-error.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The YAML parser, loaded when the first skill file is parsed: evaluating the package took about
 * 35 ms of every import of `agent-harness/node`, most of whose hosts load no skill. (Loaded with
 * `require`, as Node loads it for `import` too: `parseSkillFile` is synchronous.)
 */
type YamlParse = (source: string, options: { maxAliasCount: number }) => unknown;
let yamlParse: YamlParse | undefined;
function parseYaml(source: string, options: { maxAliasCount: number }): unknown {
  yamlParse ??= (createRequire(import.meta.url)('yaml') as { parse: YamlParse }).parse;
  return yamlParse(source, options);
}

/**
 * Splits an `allowed-tools` string into rules at spaces and commas outside parentheses, so
 * `Bash(npm test:*) Read, Grep` gives three rules.
 */
export function splitAllowedTools(value: string): string[] {
  if (typeof value !== 'string') throw argumentError('splitAllowedTools', 'value', "a SKILL.md allowed-tools value (a string such as 'Read Grep Bash(git:*)')", value);
  const rules: string[] = [];
  let current = '';
  let depth = 0;
  for (const character of value) {
    if (character === '(') depth++;
    if (character === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (character === ',' || /\s/.test(character))) {
      if (current) rules.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  if (current) rules.push(current);
  return rules;
}

function fail(source: string, message: string, cause?: unknown): never {
  throw new SkillFormatError(`${source}: ${message}`, { source, ...(cause === undefined ? {} : { cause }) });
}

function optionalString(source: string, data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') fail(source, `the frontmatter field "${key}" must be a string, got ${typeof value}.`);
  return value;
}

/** What YAML made of a value that should have been text, for a message: "the number 123", "a list". */
function describeYamlValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `the ${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a date';
  return typeof value === 'object' && value !== null ? 'a mapping' : `a ${typeof value}`;
}

/**
 * A field that must be text (`name`, `description`): YAML reads `name: 123` or `description: true`
 * as a number or a boolean, which is refused by name with the fix rather than reported as missing.
 */
function textField(source: string, data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  if (value === undefined || value === null || typeof value === 'string') return value ?? undefined;
  const scalar = typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint';
  const fix = scalar ? `put it in quotes: ${key}: "${String(value)}"` : `write it as one line of text, e.g. ${key}: house-style`;
  return fail(source, `the frontmatter field "${key}" is ${describeYamlValue(value)}, not text; ${fix}.`);
}

function allowedTools(source: string, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return splitAllowedTools(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.map((item: string) => item.trim()).filter(Boolean);
  return fail(source, 'the frontmatter field "allowed-tools" must be a space-separated string or a list of strings, e.g. "Bash(git:*) Read".');
}

function metadata(source: string, value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) fail(source, 'the frontmatter field "metadata" must be a mapping of keys to strings.');
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, typeof item === 'string' ? item : metadataJson(source, key, item)]));
}

/** A non-string metadata value as JSON; a YAML alias can make it circular, which JSON cannot hold. */
function metadataJson(source: string, key: string, item: unknown): string {
  try {
    return JSON.stringify(item);
  } catch (error) {
    return fail(
      source,
      `the frontmatter field "metadata" holds a value under ${JSON.stringify(key)} that cannot be written as text (a circular YAML alias, or nested too deep); metadata values must be strings.`,
      error,
    );
  }
}

/**
 * Parses a `SKILL.md`: YAML frontmatter between `---` lines (`name`, `description`, and the
 * optional `license`, `compatibility`, `metadata`, `allowed-tools`; other fields are ignored),
 * then the Markdown instructions.
 * @param text - the file's content.
 * @param source - the file's path, for error messages.
 * @param folderName - the skill folder's name, which the skill's name must equal (Agent Skills format).
 * @throws SkillFormatError naming the file and the problem.
 */
export function parseSkillFile(text: string, source: string, folderName?: string): Skill {
  if (typeof text !== 'string') throw argumentError('parseSkillFile', 'text', "a SKILL.md file's text (a string)", text);
  if (typeof source !== 'string') throw argumentError('parseSkillFile', 'source', 'where the text came from, for messages (a string such as a path)', source);
  if (folderName !== undefined && typeof folderName !== 'string') throw argumentError('parseSkillFile', 'folderName', "the skill's folder name (a string) or nothing", folderName);
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') fail(source, 'a SKILL.md must start with YAML frontmatter between "---" lines, holding at least name and description.');
  // The closing fence starts its line: an indented "---" is text inside a block value.
  const end = lines.findIndex((line, index) => index > 0 && (line.trimEnd() === '---' || line.trimEnd() === '...'));
  if (end === -1) fail(source, 'the YAML frontmatter is not closed: add a "---" line after it.');
  let data: unknown;
  try {
    data = parseYaml(lines.slice(1, end).join('\n'), { maxAliasCount: 50 });
  } catch (error) {
    fail(source, `the frontmatter is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`, error);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail(source, 'the frontmatter must be a YAML mapping with name and description.');
  const fields = data as Record<string, unknown>;
  const skill: Mutable<Skill> = {
    name: textField(source, fields, 'name') as string,
    description: textField(source, fields, 'description') as string,
    instructions: lines.slice(end + 1).join('\n').trim(),
  };
  const license = optionalString(source, fields, 'license');
  const compatibility = optionalString(source, fields, 'compatibility');
  const tools = allowedTools(source, fields['allowed-tools']);
  const meta = metadata(source, fields.metadata);
  if (license !== undefined) skill.license = license;
  if (compatibility !== undefined) skill.compatibility = compatibility;
  if (tools !== undefined) skill.allowedTools = tools;
  if (meta !== undefined) skill.metadata = meta;
  const problem = skillProblem(skill, source);
  if (problem) throw new SkillFormatError(problem, { source });
  if (folderName !== undefined && skill.name !== folderName) {
    fail(source, `the skill is named "${skill.name}" but its folder is "${folderName}"; a skill's name must equal its folder's name.`);
  }
  return skill;
}
