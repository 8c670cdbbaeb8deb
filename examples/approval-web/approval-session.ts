/**
 * One agent session behind the page: creates or resumes the agent from the file store, runs
 * prompts and approvals in the background, and tells listeners about every event and state change.
 */
import { appendFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAgent, type Agent, type AgentEvent, type AgentOptions, type AgentRun, type ApprovalDecision } from 'agent-harness';
import { filePlanStore, fileSessionStore } from 'agent-harness/node';
import { viewState, type ViewState, type ViewStatus } from './view-state.js';

/** Options of {@link ApprovalSession.open}. */
export interface ApprovalSessionOptions {
  /** Holds `sessions/` (transcripts), `plans/`, `current-session.json` and `tool-log.jsonl`. */
  dataDir: string;
  /** Everything of `createAgent` but the stores, `resume` and `sessionId`. */
  agentOptions: Omit<AgentOptions, 'store' | 'planStore' | 'resume' | 'sessionId'>;
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
      session.agent = session.createAgent({ resume: sessionId });
      await session.agent.ready;
      session.status = session.agent.pendingApprovals.length > 0 ? 'awaiting-approval' : 'idle';
    }
    return session;
  }

  private createAgent(extra: Pick<AgentOptions, 'resume'>): Agent {
    const { dataDir, agentOptions } = this.options;
    return createAgent({
      ...agentOptions,
      ...extra,
      store: fileSessionStore({ dir: join(dataDir, 'sessions') }),
      planStore: filePlanStore({ dir: join(dataDir, 'plans') }),
    });
  }

  /** The current page state. */
  state(): ViewState {
    return viewState({ agent: this.agent, status: this.status, streaming: this.streaming, error: this.error });
  }

  /** Listens to events and state changes; returns the function that stops listening. */
  subscribe(listener: (message: SessionMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends a prompt, starting the session on the first one. */
  async prompt(text: string): Promise<void> {
    if (!this.agent) {
      this.agent = this.createAgent({});
      await writeFile(this.pointerFile, JSON.stringify({ sessionId: this.agent.sessionId }));
    }
    this.consume(this.agent.run(text));
  }

  /** Answers a pending approval; the run goes on in the background. */
  answer(id: string, decision: ApprovalDecision): void {
    if (!this.agent) throw new Error('There is no session yet.');
    this.consume(this.agent.resolveApproval(id, decision));
  }

  /** Forgets the current session (its transcript stays in `sessions/`); the next prompt starts a new one. */
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
    if (event.type === 'turn-start' || event.type === 'turn-end') this.streaming = '';
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
