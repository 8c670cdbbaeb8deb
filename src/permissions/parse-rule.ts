import { ConfigurationError } from '../errors/configuration-error.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/** A permission rule string, parsed. */
export interface ParsedRule {
  /** The tool the rule is about, e.g. `Bash`. */
  toolName: string;
  /** The pattern between the parentheses, e.g. `npm test:*`; `undefined` for a bare `Tool` rule. */
  pattern?: string;
}

const RULE = /^([A-Za-z0-9_-]{1,64}?(?:__\*)?)(?:\((.*)\))?$/s;

/**
 * Parses a permission rule: `Tool` (every call of the tool) or `Tool(pattern)`, where the pattern
 * is a command prefix (`Bash(npm test:*)`), an exact command (`Bash(npm test)`) or a path glob
 * (`Edit(src/**)`), depending on the tool's `ruleTarget`. MCP tools are named
 * `mcp__<server>__<tool>`; `mcp__<server>` and `mcp__<server>__*` name every tool of a server.
 * @throws ConfigurationError naming the bad string and the right form.
 * @example
 * parseRule('Bash(npm test:*)'); // { toolName: 'Bash', pattern: 'npm test:*' }
 */
export function parseRule(rule: string): ParsedRule {
  if (typeof rule !== 'string') {
    throw new ConfigurationError(`Permission rule ${String(rule)} is not a string; write rules as "Tool" or "Tool(pattern)", e.g. "Bash(npm test:*)".`);
  }
  const match = RULE.exec(rule.trim());
  const pattern = match?.[2]?.trim();
  if (!match || pattern === '') {
    throw new ConfigurationError(
      `Permission rule ${JSON.stringify(rule)} is malformed: write "Tool" or "Tool(pattern)" with a tool name of letters, digits, "_" or "-" and a non-empty pattern, e.g. "Read", "Bash(npm test:*)" or "Edit(src/**)".`,
    );
  }
  if (pattern !== undefined && match[1]!.endsWith('__*')) {
    throw new ConfigurationError(`Permission rule ${JSON.stringify(rule)} gives a pattern to a group of tools; write "${match[1]}" alone, or name one tool with its pattern.`);
  }
  if (pattern !== undefined && pattern.endsWith(':*') && pattern.slice(0, -2).trim() === '') {
    throw new ConfigurationError(
      `Permission rule ${JSON.stringify(rule)} has an empty command prefix: write "${match[1]}(prefix:*)", e.g. "Bash(npm test:*)", or the bare "${match[1]}" to match every call.`,
    );
  }
  return pattern === undefined ? { toolName: match[1]! } : { toolName: match[1]!, pattern };
}

/** Formats a parsed rule back into its string form. */
export function formatRule(rule: ParsedRule): string {
  if (!isObjectValue(rule) || typeof rule.toolName !== 'string') throw argumentError('formatRule', 'rule', "a parsed rule ({ toolName, pattern }, from parseRule('Bash(npm test:*)'))", rule);
  return rule.pattern === undefined ? rule.toolName : `${rule.toolName}(${rule.pattern})`;
}
