import { ConfigurationError } from '../errors/configuration-error.js';
import { checkOptions, isNonEmptyString, required, type OptionsSpec } from '../options/index.js';

/** Options of {@link planFileName}. */
export interface PlanFileNameOptions {
  /** The session's plan slug, e.g. `quiet-copper-lantern`. */
  slug: string;
  /**
   * The subagent whose plan this is; the main agent's plan has none.
   * @default undefined
   */
  agentId?: string;
}

const OPTIONS: OptionsSpec<PlanFileNameOptions> = { slug: required(isNonEmptyString), agentId: isNonEmptyString };

/**
 * The plan file name of a session: `{slug}.md` for the main agent, `{slug}-agent-{agentId}.md`
 * for a subagent (the names Claude Code uses, so its plan folder can serve as a store).
 * @throws ConfigurationError when the resulting name is not a valid plan name.
 * @example planFileName({ slug: 'quiet-copper-lantern', agentId: 'a1' }) // 'quiet-copper-lantern-agent-a1.md'
 */
export function planFileName(options: PlanFileNameOptions): string {
  checkOptions<PlanFileNameOptions>(options, OPTIONS, { owner: 'planFileName', usage: "planFileName({ slug: 'quiet-copper-lantern' })" });
  const { slug, agentId } = options;
  const name = agentId === undefined ? `${slug}.md` : `${slug}-agent-${agentId}.md`;
  assertPlanName(name);
  return name;
}

/** The longest plan name, in UTF-8 bytes: the file-name limit of common file systems (ext4, APFS, NTFS in practice). */
export const MAX_PLAN_NAME_BYTES = 255;

/** The length of `text` encoded as UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Why `name` is not a valid plan name, or `undefined` when it is. The length limit is
 * {@link MAX_PLAN_NAME_BYTES} UTF-8 bytes (not characters), since that is what file systems count.
 */
export function planNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return `a plan name must be a string, got ${name === null ? 'null' : typeof name}`;
  if (name.length === 0) return 'a plan name must not be empty';
  const bytes = utf8ByteLength(name);
  if (bytes > MAX_PLAN_NAME_BYTES) {
    return `a plan name must be at most ${MAX_PLAN_NAME_BYTES} bytes in UTF-8 (the file-name limit of common file systems), got ${bytes} bytes (${name.length} characters)`;
  }
  if (/[/\\]/.test(name)) return `plan name ${JSON.stringify(name)} contains a path separator`;
  if (name.includes('..')) return `plan name ${JSON.stringify(name)} contains ".."`;
  if (name.startsWith('.')) return `plan name ${JSON.stringify(name)} starts with "." (reserved for temporary files)`;
  // Control characters (NUL above all) are never part of a file name we write.
  if (/[\u0000-\u001f\u007f]/.test(name)) return `plan name ${JSON.stringify(name)} contains a control character`;
  return undefined;
}

/**
 * Checks that `name` is a plain file name that stays inside a store's directory.
 * @throws ConfigurationError naming the problem.
 */
export function assertPlanName(name: unknown): asserts name is string {
  const problem = planNameProblem(name);
  if (problem !== undefined) {
    throw new ConfigurationError(`Invalid plan name: ${problem}. Use a plain file name such as "quiet-copper-lantern.md" (see planFileName()).`);
  }
}

/** The last segment of a path (`/home/me/.claude/plans/x.md` → `x.md`), for `/` and `\` separators. */
export function baseName(path: string): string {
  const index = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return index === -1 ? path : path.slice(index + 1);
}
