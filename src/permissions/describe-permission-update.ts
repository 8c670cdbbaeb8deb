import { checkOptions, isPlainObject, isString, type OptionsSpec } from '../options/index.js';
import type { Tool } from '../tools/types.js';
import { parseRule } from './parse-rule.js';
import type { PermissionMode, PermissionRuleInput, PermissionUpdate } from '../types/permission.js';
import { ruleString } from './rule-input.js';
import { ownValue } from '../model/own-value.js';
import { revealHiddenCharacters } from '../tools/reveal-hidden-characters.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/** Options of {@link describePermissionUpdate}. */
export interface DescribePermissionUpdateOptions {
  /**
   * The tool the rules are about, so a path rule reads "files" and a command rule "commands".
   * @default the well-known tools by name (`Read`, `Write`, `Edit`, `Glob`, `Grep`, `Bash`)
   */
  tool?: Pick<Tool, 'name' | 'kind' | 'ruleTarget'>;
  /**
   * The workspace root, named "this project".
   * @default undefined (relative patterns are read as inside the project)
   */
  cwd?: string;
}

const OPTIONS: OptionsSpec<DescribePermissionUpdateOptions> = { tool: isPlainObject, cwd: isString };

/** What a call of a well-known tool does, as a gerund. */
const GERUNDS: Readonly<Record<string, string>> = {
  Read: 'reading',
  Write: 'writing',
  Edit: 'editing',
  MultiEdit: 'editing',
  NotebookEdit: 'editing',
  Glob: 'listing',
  Grep: 'searching',
  Bash: 'running',
  WebFetch: 'fetching',
};

const TARGETS: Readonly<Record<string, 'path' | 'command'>> = { Read: 'path', Write: 'path', Edit: 'path', MultiEdit: 'path', NotebookEdit: 'path', Glob: 'path', Grep: 'path', Bash: 'command' };

const KIND_GERUNDS: Readonly<Record<string, string>> = { read: 'reading', edit: 'changing', execute: 'running' };

const MODES: Readonly<Record<PermissionMode, string>> = {
  default: 'Ask again before anything that changes files or runs commands',
  acceptEdits: 'Allow file edits in this project without asking, for the rest of this session',
  plan: 'Switch to plan mode: read only, nothing is changed',
  auto: 'Let the automatic reviewer decide what would be asked, for the rest of this session',
  dontAsk: 'Refuse, without asking, whatever would need asking, for the rest of this session',
  bypassPermissions: 'Allow everything without asking (bypass permissions), for the rest of this session',
};

function gerundOf(toolName: string, tool: DescribePermissionUpdateOptions['tool']): string {
  // Own entries only: a tool may be named `constructor` or `toString`.
  const known = ownValue(GERUNDS, toolName);
  if (known) return known;
  const byKind = tool && tool.name === toolName ? ownValue(KIND_GERUNDS, tool.kind) : undefined;
  return byKind ? `${byKind} with ${toolName}` : `using ${toolName}`;
}

function pathPhrase(pattern: string, cwd: string | undefined): string {
  let shown = pattern;
  if (cwd && (shown === cwd || shown.startsWith(`${cwd}/`))) shown = shown.slice(cwd.length + 1) || '**';
  const outside = shown.startsWith('/') || shown.startsWith('~');
  const where = outside ? ' (outside this project)' : '';
  if (shown === '**' || shown === '**/*') return 'any file in this project';
  const folder = /^(.*[^*/])\/\*\*(?:\/\*)?$/.exec(shown);
  if (folder && !/[*?[{]/.test(folder[1]!)) return `any file in ${folder[1]}/${where}`;
  if (!/[*?[{]/.test(shown)) return `the file ${shown}${where}`;
  return `files matching ${shown}${where}`;
}

function commandPhrase(pattern: string): string {
  if (pattern.endsWith(':*')) return `commands that start with \`${pattern.slice(0, -2).trim()}\``;
  return `exactly the command \`${pattern}\``;
}

/** One rule in words, without the verb of the behaviour: "writing any file in this project". */
function describeRule(input: PermissionRuleInput, options: DescribePermissionUpdateOptions): string {
  let toolName: string;
  let pattern: string | undefined;
  try {
    ({ toolName, pattern } = parseRule(ruleString(input)));
  } catch {
    return `\`${typeof input === 'string' ? input : JSON.stringify(input)}\``;
  }
  const { tool, cwd } = options;
  const gerund = gerundOf(toolName, tool);
  const target = tool && tool.name === toolName ? tool.ruleTarget?.kind : ownValue(TARGETS, toolName);
  if (pattern === undefined) {
    if (target === 'path') return `${gerund} any file, inside or outside this project`;
    if (target === 'command') return `${gerund} any command`;
    return `${gerund}`;
  }
  if (target === 'path') return `${gerund} ${pathPhrase(pattern, cwd)}`;
  if (target === 'command') return `${gerund} ${commandPhrase(pattern)}`;
  return `${gerund} for \`${pattern}\``;
}

/** What each rule list does, for `replaceRules` and `removeRules`. */
const LISTS = { allow: 'allow without asking', deny: 'always refuse', ask: 'always ask before' } as const;

function rulesInWords(rules: readonly PermissionRuleInput[], options: DescribePermissionUpdateOptions): string {
  return joinWords(rules.map((rule) => describeRule(rule, options)));
}

function joinWords(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * A permission update in plain words, for an "always allow" button: `Write(**)` becomes "Allow
 * writing any file in this project", `Bash(npm test:*)` "Allow running commands that start with
 * `npm test`", `setMode: acceptEdits` "Allow file edits in this project without asking, for the
 * rest of this session". Suggestions handed to `canUseTool` and pending approvals carry this as
 * their `description`. Rules and paths are often the model's text: bidi, invisible and control
 * characters in them are shown as `<U+202E>`, so a button's words cannot be reordered or hidden.
 * @example describePermissionUpdate({ type: 'addRules', behavior: 'allow', rules: ['Edit(src/**)'], destination: 'session' })
 * // 'Allow editing any file in src/'
 */
export function describePermissionUpdate(update: PermissionUpdate, options: DescribePermissionUpdateOptions = {}): string {
  if (!isObjectValue(update) || typeof update.type !== 'string') throw argumentError('describePermissionUpdate', 'update', "a permission update ({ type: 'addRules', ... })", update);
  checkOptions<DescribePermissionUpdateOptions>(options, OPTIONS, { owner: 'describePermissionUpdate', optional: true });
  return revealHiddenCharacters(updateInWords(update, options));
}

function updateInWords(update: PermissionUpdate, options: DescribePermissionUpdateOptions): string {
  const where = update.destination === 'host' ? ', and keep it beyond this session' : '';
  switch (update.type) {
    case 'addRules': {
      const verb = update.behavior === 'allow' ? 'Allow' : update.behavior === 'deny' ? 'Always refuse' : 'Always ask before';
      return `${verb} ${rulesInWords(update.rules, options)}${where}`;
    }
    case 'replaceRules':
      if (update.rules.length === 0) return `Drop the ${update.behavior} rules added in this session${where}`;
      return `From now on, ${LISTS[update.behavior]} only ${rulesInWords(update.rules, options)}${where}`;
    case 'removeRules':
      return `No longer ${LISTS[update.behavior]} ${rulesInWords(update.rules, options)}${where}`;
    case 'setMode':
      return `${ownValue(MODES, update.mode) ?? `Switch to the ${update.mode} mode`}${where}`;
    case 'addDirectories':
      return `Let the tools work in ${joinWords(update.directories)} too${where}`;
    case 'removeDirectories':
      return `Stop the tools working in ${joinWords(update.directories)}${where}`;
    default:
      return `Change the permissions (${(update as { type?: unknown }).type as string})`;
  }
}

/** The update with its `description` filled in, when it has none. */
export function withDescription(update: PermissionUpdate, options: DescribePermissionUpdateOptions): PermissionUpdate {
  return update.description === undefined ? { ...update, description: describePermissionUpdate(update, options) } : update;
}
