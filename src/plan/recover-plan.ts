import { isToolResultBlock, isToolUseBlock, type ContentBlock } from '../model/messages.js';
import type { SessionEntry } from '../state/entries.js';
import { EXIT_PLAN_MODE_TOOLS } from './exit-plan-mode-tools.js';
import { baseName, planFileName, planNameProblem } from './plan-name.js';
import type { PlanStore } from './plan-store.js';
import type { SessionEntrySource } from './session-entry-source.js';
import { checkOptions, isEntrySource, isNonEmptyString, isPlanStore, required, type OptionsSpec } from '../options/index.js';

/** Where a recovered plan came from, in the order {@link recoverPlan} tries them. */
export type PlanSource = 'store' | 'snapshot' | 'exit-plan-mode' | 'plan-content' | 'plan-reference';

/** The sources, in order. */
export const PLAN_SOURCES: readonly PlanSource[] = ['store', 'snapshot', 'exit-plan-mode', 'plan-content', 'plan-reference'];

/** A recovered plan. */
export interface RecoveredPlan {
  text: string;
  /** Which source answered. */
  source: PlanSource;
  /** The plan file name (or path) the source named, when it named one. */
  name?: string;
}

/** Options of {@link recoverPlan}. */
export interface RecoverPlanOptions {
  /** The session's entries (a session store's entries, or `readClaudeCodeSession(...)`). Read once. */
  entries: SessionEntrySource;
  /**
   * The plan store to look in first (and to resolve plan references that carry no text).
   * @default undefined (the store is skipped)
   */
  store?: PlanStore;
  /**
   * The session's plan slug.
   * @default the last slug recorded in the main agent's entries (`session-meta` without `agentId`), if any
   */
  slug?: string;
  /**
   * Whose plan: a subagent's id (entries of other agents are ignored), or `undefined` for the main agent.
   * @default undefined
   */
  agentId?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** A recorded plan name, left out when it is not a name. */
function nameOf(name: unknown): { name?: string } {
  return nonEmpty(name) ? { name } : {};
}

/** The latest candidate of each source, found in one pass over the entries. */
interface Candidates {
  slug?: string;
  /** The last snapshot saved at approval. */
  snapshot?: RecoveredPlan;
  /** The last copy of the plan file from Claude Code's file history, unless a later plan superseded it. */
  fileHistory?: RecoveredPlan;
  /** Whether the file-history copy is later than the approval-time snapshot. */
  fileHistoryIsLater?: boolean;
  exitPlanMode?: RecoveredPlan;
  /** An approved ExitPlanMode that named only the plan file, to look up in the store. */
  exitPlanModeFile?: string;
  planContent?: RecoveredPlan;
  referenceWithText?: RecoveredPlan;
  /** The last reference, which may carry only a name to look up in the store. */
  lastReference?: { name: string; text?: string };
}

/** An approved ExitPlanMode call: the plan Claude Code recorded on the result, else the input's; the file it names. */
function approvedPlan(input: unknown, toolUseResult: unknown): { text?: string; filePath?: string } {
  const call = isRecord(input) ? input : undefined;
  const recorded = isRecord(toolUseResult) ? toolUseResult : undefined;
  const text = nonEmpty(recorded?.plan) ? recorded.plan : nonEmpty(call?.plan) ? call.plan : undefined;
  const filePath = nonEmpty(recorded?.filePath) ? recorded.filePath : nonEmpty(call?.planFilePath) ? call.planFilePath : undefined;
  return { ...(text !== undefined ? { text } : {}), ...(filePath !== undefined ? { filePath } : {}) };
}

async function scan(entries: SessionEntrySource, agentId: string | undefined): Promise<Candidates> {
  const found: Candidates = {};
  /** ExitPlanMode calls waiting for their result: id → the call's input. */
  const calls = new Map<string, unknown>();
  /** A later plan supersedes a file-history copy: it was the file before the turn or an edit. */
  const laterPlan = (): void => {
    found.fileHistory = undefined;
  };
  for await (const entry of entries as AsyncIterable<SessionEntry>) {
    // Read from outside (a store, Claude Code's files, a hand-edited transcript): what is not an entry is passed over.
    if (!isRecord(entry)) continue;
    // The slug belongs to the session (the main agent's session-meta); a subagent sharing the
    // store records its own slug, which must not replace it. Everything else belongs to one agent.
    if (entry.kind === 'session-meta') {
      if (entry.agentId === undefined && nonEmpty(entry.slug)) found.slug = entry.slug;
      continue;
    }
    if (entry.agentId !== agentId) continue;
    switch (entry.kind) {
      case 'plan-snapshot':
        if (!nonEmpty(entry.text)) break;
        if (entry.capturedFrom === 'file-history') {
          found.fileHistory = { text: entry.text, source: 'snapshot', ...nameOf(entry.name) };
          found.fileHistoryIsLater = true;
        } else {
          found.snapshot = { text: entry.text, source: 'snapshot', ...nameOf(entry.name) };
          found.fileHistoryIsLater = false;
        }
        break;
      case 'checkpoint': {
        // The state a fork, a resumed snapshot or a compaction starts from: its plan is the
        // session's, though no approval in this transcript recorded it.
        const state = isRecord(entry.state) ? entry.state : undefined;
        const plan = isRecord(state?.plan) ? state.plan : undefined;
        if (agentId === undefined && nonEmpty(state?.planSlug)) found.slug = state.planSlug;
        if (plan && nonEmpty(plan.text)) {
          found.snapshot = { text: plan.text, source: 'snapshot', ...nameOf(plan.name) };
          found.fileHistoryIsLater = false;
        }
        break;
      }
      case 'call-allowed':
        // The input the host approved (its edit of the plan), which the call's own input is not.
        if (typeof entry.toolUseId === 'string' && calls.has(entry.toolUseId) && isRecord(entry.input)) calls.set(entry.toolUseId, entry.input);
        break;
      case 'plan-reference':
        if (!nonEmpty(entry.name)) break;
        found.lastReference = { name: entry.name, ...(entry.text !== undefined ? { text: entry.text } : {}) };
        if (nonEmpty(entry.text)) {
          found.referenceWithText = { text: entry.text, source: 'plan-reference', name: entry.name };
          laterPlan();
        }
        break;
      case 'message': {
        if (nonEmpty(entry.planContent)) {
          found.planContent = { text: entry.planContent, source: 'plan-content' };
          laterPlan();
        }
        // Read from outside (a store, Claude Code's files): a message that is not whole is passed over.
        const content: unknown = isRecord(entry.message) ? entry.message.content : undefined;
        if (!Array.isArray(content)) break;
        const blocks = content.filter(isRecord) as unknown as ContentBlock[];
        if (entry.message.role === 'assistant') {
          for (const block of blocks) {
            if (isToolUseBlock(block) && EXIT_PLAN_MODE_TOOLS.has(block.name)) calls.set(block.id, block.input);
          }
          break;
        }
        for (const block of blocks) {
          if (!isToolResultBlock(block) || !calls.has(block.tool_use_id)) continue;
          const input = calls.get(block.tool_use_id);
          calls.delete(block.tool_use_id);
          // A rejected plan comes back as an error result; only an approved one counts.
          if (block.is_error) continue;
          // Claude Code records the approved (possibly user-edited) plan on the result line.
          const { text, filePath } = approvedPlan(input, entry.toolUseResult);
          if (text !== undefined) {
            found.exitPlanMode = { text, source: 'exit-plan-mode', ...(filePath ? { name: filePath } : {}) };
            found.exitPlanModeFile = undefined;
          } else if (filePath !== undefined) {
            // Newer Claude Code reads the plan from its file and may not repeat it: the file names it.
            found.exitPlanMode = undefined;
            found.exitPlanModeFile = filePath;
          } else {
            continue;
          }
          laterPlan();
        }
        break;
      }
      default:
        break;
    }
  }
  return found;
}

async function readFromStore(store: PlanStore, name: string): Promise<string | undefined> {
  if (planNameProblem(name) !== undefined) return undefined;
  const text = await store.read(name);
  return nonEmpty(text) ? text : undefined;
}

const OPTIONS: OptionsSpec<RecoverPlanOptions> = { entries: required(isEntrySource), store: isPlanStore, slug: isNonEmptyString, agentId: isNonEmptyString };

/**
 * Finds a session's plan, trying in order: the plan `store` (the file `{slug}.md`, or
 * `{slug}-agent-{agentId}.md`); the last plan `snapshot` entry — saved at approval, the plan of a `checkpoint` (a fork's or a
 * resumed snapshot's first state), or a copy of
 * the plan file from Claude Code's file history (`file-history-snapshot` lines, read by
 * `readClaudeCodeSessionFile`) when no later plan came after it; the last approved `ExitPlanMode`
 * call (`exit_plan_mode` in Claude Code 1.0.x: its result's `toolUseResult.plan` when Claude Code
 * recorded one, else the approved input's `plan` — the host's edit when it made one, else the call's `input.plan` —, else the plan file it names, looked up in the store;
 * rejected calls are error results and do not count); the last user message's `planContent`; the
 * last plan file reference (an attachment kept through compaction — its text, or the referenced
 * file in the store). Reports which source answered.
 * @returns the plan, or `undefined` when no source has one.
 * @example
 * const plan = await recoverPlan({ store, entries: readClaudeCodeSessionFile(file) });
 */
export async function recoverPlan(options: RecoverPlanOptions): Promise<RecoveredPlan | undefined> {
  checkOptions<RecoverPlanOptions>(options, OPTIONS, { owner: 'recoverPlan', usage: 'recoverPlan({ entries, store, slug })' });
  const { store, agentId } = options;
  const nameOf = (slug: string): string => planFileName({ slug, agentId });
  // With a slug and a store, the cheapest source may answer before the entries are read at all.
  if (store && options.slug !== undefined) {
    const name = nameOf(options.slug);
    const text = await readFromStore(store, name);
    if (text !== undefined) return { text, source: 'store', name };
  }
  const found = await scan(options.entries, agentId);
  if (store && options.slug === undefined && found.slug !== undefined) {
    // A slug read from a transcript is only used when it makes a valid file name (readFromStore checks).
    const name = agentId === undefined ? `${found.slug}.md` : `${found.slug}-agent-${agentId}.md`;
    const text = await readFromStore(store, name);
    if (text !== undefined) return { text, source: 'store', name };
  }
  const snapshot = found.fileHistory && (found.fileHistoryIsLater || !found.snapshot) ? found.fileHistory : found.snapshot;
  if (snapshot) return snapshot;
  if (found.exitPlanMode) return found.exitPlanMode;
  if (found.exitPlanModeFile !== undefined && store) {
    const text = await readFromStore(store, baseName(found.exitPlanModeFile));
    if (text !== undefined) return { text, source: 'exit-plan-mode', name: found.exitPlanModeFile };
  }
  if (found.planContent) return found.planContent;
  const reference = found.lastReference;
  if (reference && !nonEmpty(reference.text) && store) {
    const text = await readFromStore(store, baseName(reference.name));
    if (text !== undefined) return { text, source: 'plan-reference', name: reference.name };
  }
  return found.referenceWithText;
}
