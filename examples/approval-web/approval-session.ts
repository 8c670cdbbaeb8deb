/**
 * One agent session behind the page: creates or resumes the agent from the file store, runs
 * prompts and approvals in the background, and tells listeners about every event and state change.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAgent, type Agent, type AgentEvent, type AgentOptions, type AgentRun, type ApprovalDecision, type Tool } from 'agent-harness';
import { filePlanStore, fileSessionStore } from 'agent-harness/node';
import { honestTodos } from './honest-todos.js';
import { viewState, type ViewState, type ViewStatus } from './view-state.js';

/** Options of {@link ApprovalSession.open}. */
export interface ApprovalSessionOptions {
  /** Holds `sessions/` (transcripts), `plans/`, `current-session.json` and `tool-log.jsonl`. */
  dataDir: string;
  /** Each session works in a folder of its own here, named after the session: a new session never finds the last one's files. */
  workspacesDir: string;
  /** The tools of a session, working in its folder. */
  tools: (workspaceDir: string) => Tool[];
  /** Everything else of `createAgent` (not the stores, tools, `cwd`, `hooks`, `resume` or `sessionId`). */
  agentOptions: Omit<AgentOptions, 'store' | 'planStore' | 'resume' | 'sessionId' | 'tools' | 'cwd' | 'hooks'>;
}

/** What listeners receive: an agent event, or the new page state. */
export type SessionMessage = AgentEvent | { type: 'state'; state: ViewState };

/** The agent session the page talks to. */
export class ApprovalSession {
  private agent: Agent | undefined;
  private status: ViewStatus = 'no-session';
  private streaming = '';
  private error: string | null = null;
  private readonly listeners = new Set<(message: SessionMessage) => void>();
  private stateQueued = false;

  private constructor(private readonly options: ApprovalSessionOptions) {}

  private get pointerFile(): string {
    return join(this.options.dataDir, 'current-session.json');
  }

  /** Opens the data directory and resumes the session it points to, pending approvals included. */
  static async open(options: ApprovalSessionOptions): Promise<ApprovalSession> {
    const session = new ApprovalSession(options);
    await mkdir(options.dataDir, { recursive: true });
    const pointer = await readFile(session.pointerFile, 'utf8').catch(() => undefined);
    if (pointer) {
      const { sessionId } = JSON.parse(pointer) as { sessionId: string };
      session.agent = await session.createAgent(sessionId, { resume: sessionId });
      await session.agent.ready;
      session.status = session.agent.pendingApprovals.length > 0 ? 'awaiting-approval' : 'idle';
    }
    return session;
  }

  /** The folder a session works in. */
  private workspaceOf(sessionId: string): string {
    return join(this.options.workspacesDir, sessionId);
  }

  private async createAgent(sessionId: string, extra: Pick<AgentOptions, 'resume' | 'sessionId'>): Promise<Agent> {
    const { dataDir, agentOptions } = this.options;
    const cwd = this.workspaceOf(sessionId);
    await mkdir(cwd, { recursive: true });
    return createAgent({
      ...agentOptions,
      ...extra,
      tools: this.options.tools(cwd),
      cwd,
      // The todo list never claims work whose tool call failed.
      hooks: { PreToolUse: [honestTodos(() => this.agent)] },
      store: fileSessionStore({ dir: join(dataDir, 'sessions') }),
      planStore: filePlanStore({ dir: join(dataDir, 'plans') }),
    });
  }

  /** The current page state. */
  state(): ViewState {
    const workspaceDir = this.agent ? this.workspaceOf(this.agent.sessionId) : null;
    return viewState({ agent: this.agent, status: this.status, streaming: this.streaming, error: this.error, workspaceDir });
  }

  /** Listens to events and state changes; returns the function that stops listening. */
  subscribe(listener: (message: SessionMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends a prompt, starting the session on the first one. */
  async prompt(text: string): Promise<void> {
    if (!this.agent) {
      const sessionId = `session_${randomUUID()}`;
      this.agent = await this.createAgent(sessionId, { sessionId });
      await writeFile(this.pointerFile, JSON.stringify({ sessionId: this.agent.sessionId }));
    }
    this.consume(this.agent.run(text));
  }

  /** Answers a pending approval; the run goes on in the background. */
  answer(id: string, decision: ApprovalDecision): void {
    if (!this.agent) throw new Error('There is no session yet.');
    this.consume(this.agent.resolveApproval(id, decision));
  }

  /** Forgets the current session (its transcript and its folder stay); the next prompt starts a new one in a new folder. */
  async reset(): Promise<void> {
    await this.agent?.close({ reason: 'new session from the page' });
    this.agent = undefined;
    this.status = 'no-session';
    this.error = null;
    await rm(this.pointerFile, { force: true });
    this.queueState();
  }

  /** Whether a run is active. */
  get running(): boolean {
    return this.agent?.running ?? false;
  }

  /** Releases the session file's lock; call on shutdown. */
  async close(): Promise<void> {
    await this.agent?.close({ reason: 'server stopped' });
  }

  private consume(run: AgentRun): void {
    this.status = 'running';
    this.error = null;
    this.queueState();
    void (async () => {
      try {
        for await (const event of run) this.onEvent(event);
        const result = await run.result;
        this.status = result.status === 'max-turns' || result.status === 'budget-exceeded' ? 'interrupted' : result.status;
        this.error = result.error ? result.error.message : null;
      } catch (error) {
        this.status = 'error';
        this.error = error instanceof Error ? error.message : String(error);
      }
      this.streaming = '';
      this.queueState();
    })();
  }

  private onEvent(event: AgentEvent): void {
    // The text of the turn streaming now; a turn retried after a broken stream starts it over.
    if (event.type === 'turn-start' || event.type === 'turn-end' || event.type === 'stream-retry') this.streaming = '';
    if (event.type === 'text-delta') this.streaming += event.text;
    if (event.type === 'tool-result' && event.durationMs !== undefined) {
      // An audit log of every tool that actually ran: one line per execution.
      const line = { toolUseId: event.toolUseId, toolName: event.toolName, isError: event.isError, at: new Date().toISOString() };
      appendFileSync(join(this.options.dataDir, 'tool-log.jsonl'), `${JSON.stringify(line)}\n`);
    }
    this.broadcast(event);
    if (event.type !== 'text-delta') this.queueState();
  }

  /** Sends the state once for a burst of events. */
  private queueState(): void {
    if (this.stateQueued) return;
    this.stateQueued = true;
    setImmediate(() => {
      this.stateQueued = false;
      this.broadcast({ type: 'state', state: this.state() });
    });
  }

  private broadcast(message: SessionMessage): void {
    for (const listener of this.listeners) listener(message);
  }
}
