/**
 * Answers pending approvals in the terminal: the plan (approve, reject, or reject with feedback)
 * and any other tool call the permission pipeline could not decide by itself.
 */
import { createInterface } from 'node:readline/promises';
import type { ApprovalDecision, PendingApproval, PermissionUpdate } from 'agent-harness';
import { describeCall, printPlanCard, type Printer } from './trace.js';

/** Options of {@link askApproval}. */
export interface AskApprovalOptions {
  print: Printer;
  /** Approve without asking (`--yes`). */
  yes: boolean;
  /** Aborted on Ctrl-C: the question is dropped and the approval stays pending in the store. */
  signal: AbortSignal;
  /** Called when Ctrl-C is pressed at the prompt (the terminal then sends no SIGINT). */
  onCtrlC: () => void;
}

/**
 * What approving the plan grants: leave plan mode for `acceptEdits` (edits inside the workspace
 * run without asking), and let the test command run, since the plan says it will. Any other
 * command still asks.
 */
export const PLAN_APPROVAL_PERMISSIONS: PermissionUpdate[] = [
  { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
  { type: 'addRules', behavior: 'allow', rules: ['Bash(node --test:*)'], destination: 'session' },
];

async function question(prompt: string, options: AskApprovalOptions): Promise<string | undefined> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  terminal.on('SIGINT', options.onCtrlC);
  try {
    return (await terminal.question(prompt, { signal: options.signal })).trim();
  } catch (error) {
    if (options.signal.aborted) return undefined;
    throw error;
  } finally {
    terminal.close();
  }
}

/** The answer when nobody is asked: `--yes`, or stdin is not a terminal. */
function automaticAnswer(options: AskApprovalOptions): string | undefined {
  if (options.yes) {
    options.print.line('  approved (--yes)');
    return 'y';
  }
  if (!process.stdin.isTTY) {
    options.print.line('  approved automatically: stdin is not a terminal (pass --yes to say so, or run it in a terminal to be asked)');
    return 'y';
  }
  return undefined;
}

function planDecision(answer: string): ApprovalDecision {
  if (/^(y|yes)$/i.test(answer)) return { behavior: 'allow', updatedPermissions: PLAN_APPROVAL_PERMISSIONS };
  if (/^(n|no)?$/i.test(answer)) {
    return { behavior: 'deny', message: 'The user rejected the plan and stopped here. Wait for their next message.', interrupt: true };
  }
  return { behavior: 'deny', message: `The user rejected the plan with this feedback: "${answer}". Revise the plan and present it again with ExitPlanMode.` };
}

function callDecision(answer: string, approval: PendingApproval): ApprovalDecision {
  if (/^(y|yes)$/i.test(answer)) return { behavior: 'allow' };
  if (/^(a|always)$/i.test(answer)) return { behavior: 'allow', updatedPermissions: approval.suggestions };
  if (/^(n|no)?$/i.test(answer)) return { behavior: 'deny', message: 'The user denied this call.' };
  return { behavior: 'deny', message: `The user denied this call and said: "${answer}"` };
}

function ruleOf(approval: PendingApproval): string | undefined {
  const rules = approval.suggestions.flatMap((update) => (update.type === 'addRules' ? update.rules : []));
  return rules.length > 0 ? rules.join(', ') : undefined;
}

/**
 * Shows a pending approval and asks the user. Returns the decision, or undefined when Ctrl-C
 * came first (the approval is still pending in the session store, and is asked again on resume).
 */
export async function askApproval(approval: PendingApproval, options: AskApprovalOptions): Promise<ApprovalDecision | undefined> {
  const { print } = options;
  if (approval.toolName === 'ExitPlanMode') {
    printPlanCard(print, String((approval.input as { plan?: unknown }).plan ?? ''));
    const answer = automaticAnswer(options) ?? (await question('Approve this plan? [y]es / [n]o / or type feedback: ', options));
    return answer === undefined ? undefined : planDecision(answer);
  }
  const why = approval.reason.type === 'tool-check' || approval.reason.type === 'mode' ? approval.reason.message : undefined;
  // MCP servers describe their tools: say when one may destroy data.
  const hints = approval.toolAnnotations?.destructiveHint ? '  ⚠ the server marks this tool as destructive' : '';
  print.line(`? permission needed: ${describeCall(approval.toolName, approval.input)}${why ? `\n  (${why})` : ''}${hints ? `\n${hints}` : ''}`);
  const rule = ruleOf(approval);
  const choices = `[y]es / [n]o${rule ? ` / [a]lways (${rule})` : ''} / or type what to do instead: `;
  const answer = automaticAnswer(options) ?? (await question(`Allow? ${choices}`, options));
  return answer === undefined ? undefined : callDecision(answer, approval);
}
