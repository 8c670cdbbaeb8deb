/**
 * Permission vocabulary shared by the pipeline, tools, hooks and the agent. A leaf module.
 */
import type { ToolDisplay } from './tool-display.js';
import type { ToolAnnotations } from './tool-annotations.js';

/** The session-level permission mode. See the README's modes table. */
export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'auto' | 'dontAsk' | 'bypassPermissions';

/** Every permission mode, in documentation order. */
export const PERMISSION_MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'plan',
  'auto',
  'dontAsk',
  'bypassPermissions',
];

/** Permission rules as strings: `Tool` or `Tool(pattern)`, e.g. `Bash(npm test:*)`, `Edit(src/**)`. */
export interface PermissionRules {
  /** Calls matching these run without asking (after deny/ask rules and the mode). */
  allow?: string[];
  /** Calls matching these are always denied, in every mode. */
  deny?: string[];
  /** Calls matching these are always asked, in every mode, even `bypassPermissions`. */
  ask?: string[];
}

/**
 * Where a permission update applies: `session` — the running session only (kept in its state,
 * snapshots and transcript); `host` — the session too, and the host is asked to keep it beyond
 * the session (a `permission-update` event carries it; pass the rules back as `rules` next time).
 */
export type PermissionUpdateDestination = 'session' | 'host';

/** A rule as an object, the Claude Agent SDK's shape: `{ toolName: 'Bash', ruleContent: 'npm test:*' }` is `Bash(npm test:*)`. */
export interface PermissionRuleValue {
  /** The tool (or MCP server) the rule names. */
  toolName: string;
  /** The pattern inside the parentheses; absent for a rule on the whole tool. */
  ruleContent?: string;
}

/** A rule: a string (`Bash(npm test:*)`) or an object (`{ toolName: 'Bash', ruleContent: 'npm test:*' }`). */
export type PermissionRuleInput = string | PermissionRuleValue;

/**
 * A change to permissions that a host can apply by echoing it back from `canUseTool`
 * (`updatedPermissions`), e.g. an "always allow" suggestion.
 */
export type PermissionUpdate = (
  | {
      /** Adds rules to a list. */
      type: 'addRules';
      /** Which list. */
      behavior: 'allow' | 'deny' | 'ask';
      /** Rules as strings (`Bash(npm test:*)`) or objects (`{ toolName, ruleContent }`). */
      rules: PermissionRuleInput[];
      destination: PermissionUpdateDestination;
    }
  | {
      /** Replaces the session's rules of one list (the options' rules stay). */
      type: 'replaceRules';
      behavior: 'allow' | 'deny' | 'ask';
      rules: PermissionRuleInput[];
      destination: PermissionUpdateDestination;
    }
  | {
      /** Removes rules from the session's list (the options' rules stay). */
      type: 'removeRules';
      behavior: 'allow' | 'deny' | 'ask';
      rules: PermissionRuleInput[];
      destination: PermissionUpdateDestination;
    }
  | {
      /** Changes the permission mode. */
      type: 'setMode';
      mode: PermissionMode;
      destination: PermissionUpdateDestination;
    }
  | {
      /** Lets the workspace tools work in more directories (absolute paths). */
      type: 'addDirectories';
      directories: string[];
      destination: PermissionUpdateDestination;
    }
  | {
      /** Takes directories added during the session away again. */
      type: 'removeDirectories';
      directories: string[];
      destination: PermissionUpdateDestination;
    }
) & {
  /**
   * The update in plain words, for a button ("Allow writing any file in this project"). Set on
   * the suggestions the runtime hands out; ignored when an update is applied.
   */
  description?: string;
};

/** Which step of the pipeline decided, or why a question is asked. */
export type PermissionReason =
  | { type: 'validation'; message: string }
  | { type: 'hook'; hookEvent: 'PreToolUse' | 'PermissionRequest'; message?: string }
  | {
      type: 'rule';
      behavior: 'allow' | 'deny' | 'ask';
      rule: string;
      /** Set when the rule could not be checked (a command hiding what it runs) and the call is asked instead. */
      message?: string;
    }
  | { type: 'mode'; mode: PermissionMode; message?: string }
  | { type: 'read-only' }
  | { type: 'tool-check'; message?: string }
  | { type: 'plan-approval' }
  /** A question for the user (`AskUserQuestion`): answer it with `updatedInput: { ...input, answers }`. */
  | { type: 'question' }
  | { type: 'classifier'; message?: string }
  | { type: 'callback'; message?: string }
  | { type: 'default' };

/** What `canUseTool` (and a resolved approval) may answer. */
export type PermissionResult =
  | {
      behavior: 'allow';
      /** A replacement input (e.g. edited by the user); validated against the schema again. */
      updatedInput?: unknown;
      /** Permission changes to apply to the session, e.g. an echoed suggestion. */
      updatedPermissions?: PermissionUpdate[];
      /**
       * For a plan approval (`ExitPlanMode`): start the execution in a fresh context — the next
       * request holds the system prompt, the tools and one user message with the approved plan
       * (and the todo list); the exploration stays in the transcript but is no longer sent.
       * @default false
       */
      clearContext?: boolean;
    }
  | {
      behavior: 'deny';
      /** Sent to the model as the error tool_result; say why and what to do instead. */
      message: string;
      /**
       * End the run (`interrupted`) once the current batch of tool calls is answered. For a
       * subagent's call, the run the host sees ends too: the subagent stops, then its parent.
       */
      interrupt?: boolean;
    }
  | {
      /** Park the call as a pending approval; the run ends `awaiting-approval`. */
      behavior: 'defer';
    };

/** The context handed to `canUseTool`. */
export interface CanUseToolContext {
  /** Aborted when the run is interrupted; a callback that waits on a human should honour it. */
  signal: AbortSignal;
  /** The id of the `tool_use` block being decided. */
  toolUseId: string;
  /** Set when the call comes from a subagent. */
  agentId?: string;
  /** For a subagent's call: its type (the key in `createAgent({ agents })`). */
  subagentType?: string;
  /** For a subagent's call: the parent's `Agent` call that started the subagent. */
  parentToolUseId?: string;
  /** Why the question is being asked (rule, mode, tool check, hook, plan approval, default). */
  reason: PermissionReason;
  /** Ready-made updates for "always allow" that the host may echo back in `updatedPermissions`. */
  suggestions: PermissionUpdate[];
  /** A path outside the workspace that caused the question, when that is the reason. */
  blockedPath?: string;
  /** What the card shows, from the tool's `display` (e.g. a unified diff); absent when the tool has none. */
  display?: ToolDisplay;
  /**
   * The tool's behaviour hints (an MCP tool's `destructiveHint`, say), to show with the question.
   * Hints from the tool's author, not guarantees.
   */
  toolAnnotations?: ToolAnnotations;
}

/**
 * The host's permission callback. Called only for calls the pipeline could not decide.
 * @param toolName - the tool's name, e.g. `Write`.
 * @param input - the validated input (after any hook rewrite).
 */
export type CanUseTool = (
  toolName: string,
  input: unknown,
  context: CanUseToolContext,
) => PermissionResult | Promise<PermissionResult>;

/** What a tool's own `checkPermissions` may say about one call. */
export type ToolPermissionCheck =
  | { behavior: 'allow' }
  | { behavior: 'deny'; message: string }
  | {
      behavior: 'ask';
      /** Shown to the host as the reason. */
      message?: string;
      /** A path outside the workspace that triggered the question. */
      blockedPath?: string;
      /** Suggestions more precise than the generic one (e.g. an allow rule for a command prefix). */
      suggestions?: PermissionUpdate[];
      /**
       * A safety question that allow rules cannot answer (a write into `.git`, through a hard
       * link): asked even when an allow rule matches. Deny rules, hooks and `bypassPermissions`
       * still apply as usual.
       */
      safety?: boolean;
      /**
       * Why the host is asked, when it is more specific than a tool check (e.g. `ExitPlanMode`
       * asks with `{ type: 'plan-approval' }`).
       * @default { type: 'tool-check', message }
       */
      askReason?: PermissionReason;
    }
  /** No opinion: the pipeline goes on. */
  | { behavior: 'passthrough' };

/** The final decision on one tool call, as emitted in `permission-decision`. */
export interface PermissionDecision {
  toolName: string;
  toolUseId: string;
  behavior: 'allow' | 'deny' | 'defer';
  reason: PermissionReason;
  /** The input that will run (after hooks and `updatedInput`), for `allow`. */
  input?: unknown;
  /** The message the model receives, for `deny`. */
  message?: string;
  /** For `deny`: the host asked to end the run after this batch. */
  interrupt?: boolean;
  /** For `allow`: permission updates to apply to the session. */
  updatedPermissions?: PermissionUpdate[];
}

/** A host-supplied classifier for `auto` mode. */
export interface AutoModeOptions {
  /**
   * Decides a call that would otherwise be asked. Return `undefined` (or `{ behavior: 'ask' }`)
   * when undecided; the call then goes to `canUseTool`.
   */
  classify: (args: {
    toolName: string;
    input: unknown;
    toolUseId: string;
    signal: AbortSignal;
  }) =>
    | Promise<{ behavior: 'allow' | 'deny' | 'ask'; message?: string } | undefined>
    | { behavior: 'allow' | 'deny' | 'ask'; message?: string }
    | undefined;
  /**
   * Whether the classifier is available now. When it says no, `auto` behaves like `default`,
   * and leaving plan mode falls back to `default` instead of `auto`.
   * @default () => true
   */
  isAvailable?: () => boolean;
}
