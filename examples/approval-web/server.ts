/**
 * The approval web app: a Node HTTP server (no framework) and one page. The agent's run streams to
 * the page over server-sent events; plans and tool calls wait as pending approvals in the file
 * store until the page answers them, even across a server restart.
 *
 *   node --import tsx examples/approval-web/server.ts          # offline demo model
 *   ANTHROPIC_API_KEY=sk-... node --import tsx examples/approval-web/server.ts
 *
 * Environment: PORT (default 3000, 0 = any free port), DATA_DIR (default examples/approval-web/.data),
 * ANTHROPIC_API_KEY, ANTHROPIC_MODEL, ANTHROPIC_BASE_URL.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ApprovalNotFoundError, ConfigurationError, RunInProgressError, type Model, type PermissionMode } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { ApprovalSession } from './approval-session.js';
import { DEMO_PROMPT, modelFromEnvironment } from './demo-model.js';
import { BodyTooLargeError, openEventStream, readJson, sendJson, sendStatic } from './http-utils.js';
import { parseDecision } from './parse-decision.js';

/** Options of {@link startApprovalServer}. */
export interface ApprovalServerOptions {
  /** Where sessions, plans, the tool log and (by default) the workspace live. Reuse it to resume after a restart. */
  dataDir: string;
  /**
   * The port to listen on; 0 picks a free one (read it back from `url`).
   * @default 0
   */
  port?: number;
  /**
   * The interface to listen on. The app has no authentication: keep it on loopback.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * Where the sessions' folders are: each session's Read/Write/Edit/Glob/Grep/Bash tools work in
   * `<workspacesDir>/<sessionId>` (created on first use), so "New session" starts in an empty folder.
   * @default `${dataDir}/workspaces`
   */
  workspacesDir?: string;
  /**
   * The model.
   * @default the real API with ANTHROPIC_API_KEY, else the offline demo model
   */
  model?: Model;
  /**
   * The mode a new session starts in.
   * @default 'plan'
   */
  permissionMode?: PermissionMode;
  /**
   * The system prompt.
   * @default a short prompt for a careful assistant working in the workspace
   */
  system?: string;
}

/** A running approval server. */
export interface ApprovalServer {
  /** e.g. `http://127.0.0.1:3000` */
  readonly url: string;
  /** Stops listening, ends the event streams and releases the session file. */
  close(): Promise<void>;
}

const STATIC_FILES = ['/app.js', '/cards.js', '/markdown.js', '/style.css'];

const SYSTEM = 'You are a careful assistant that writes files in the workspace. Plan before you change anything, keep the user informed in one or two sentences per step, and track multi-step work with TodoWrite: mark an item completed only once its tool calls succeeded, and say so when something could not be done.';

/** Starts the server; resolves once it listens. */
export async function startApprovalServer(options: ApprovalServerOptions): Promise<ApprovalServer> {
  const dataDir = resolve(options.dataDir);
  const workspacesDir = resolve(options.workspacesDir ?? join(dataDir, 'workspaces'));
  await mkdir(workspacesDir, { recursive: true });
  const fromEnvironment = options.model ? { model: options.model, offline: false } : modelFromEnvironment();
  const session = await ApprovalSession.open({
    dataDir,
    workspacesDir,
    tools: (cwd) => workspaceTools({ cwd }),
    agentOptions: {
      model: fromEnvironment.model,
      system: options.system ?? SYSTEM,
      permissionMode: options.permissionMode ?? 'plan',
    },
  });
  // Approvals answered since the server started: a second answer (a double click, another tab, a retry) gets 409, not 404.
  const answered = new Set<string>();
  const hello = { type: 'hello', offline: fromEnvironment.offline, suggestedPrompt: DEMO_PROMPT };

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const method = request.method ?? 'GET';
    if (method === 'GET' && path === '/') return sendStatic(response, 'index.html');
    if (method === 'GET' && STATIC_FILES.includes(path)) return sendStatic(response, path.slice(1));
    if (method === 'GET' && path === '/api/state') return sendJson(response, 200, session.state());
    if (method === 'GET' && path === '/api/events') {
      const send = openEventStream(response);
      send(hello);
      send({ type: 'state', state: session.state() });
      const unsubscribe = session.subscribe(send);
      request.on('close', unsubscribe);
      return;
    }
    if (method === 'POST' && path === '/api/run') {
      const { prompt } = ((await readJson(request)) ?? {}) as { prompt?: unknown };
      if (typeof prompt !== 'string' || prompt.trim() === '') return sendJson(response, 400, { error: 'Send { "prompt": "..." }.' });
      if (session.running) return sendJson(response, 409, { error: 'The agent is still working.' });
      if (session.state().approvals.length > 0) return sendJson(response, 409, { error: 'Answer the waiting approvals first.' });
      await session.prompt(prompt);
      return sendJson(response, 202, { ok: true });
    }
    const approval = /^\/api\/approvals\/([\w-]+)$/.exec(path);
    if (method === 'POST' && approval) {
      const pending = session.state().approvals.find((candidate) => candidate.id === approval[1]);
      if (!pending && answered.has(approval[1]!)) return sendJson(response, 409, { error: `Approval ${approval[1]} was already answered; this answer was not applied.` });
      if (!pending) return sendJson(response, 404, { error: `No approval ${approval[1]} is waiting.` });
      const decision = parseDecision(await readJson(request), pending);
      if ('problem' in decision) return sendJson(response, 400, { error: decision.problem });
      // Another answer to this card (two clicks, two tabs) may have landed while this body was read: only the first counts.
      if (answered.has(pending.id) || session.running || !session.state().approvals.some((candidate) => candidate.id === pending.id)) {
        return sendJson(response, 409, { error: `Approval ${pending.id} was already answered; this answer was not applied.` });
      }
      session.answer(pending.id, decision);
      answered.add(pending.id);
      return sendJson(response, 202, { ok: true });
    }
    if (method === 'POST' && path === '/api/session/reset') {
      if (session.running) return sendJson(response, 409, { error: 'The agent is still working.' });
      await session.reset();
      return sendJson(response, 200, { ok: true });
    }
    sendJson(response, 404, { error: `Not found: ${method} ${path}` });
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      const status =
        error instanceof BodyTooLargeError ? 413
        : ApprovalNotFoundError.isInstance(error) ? 404
        : RunInProgressError.isInstance(error) ? 409
        : ConfigurationError.isInstance(error) ? 400
        : 500;
      if (status === 413) response.setHeader('connection', 'close');
      if (!response.headersSent) sendJson(response, status, { error: error instanceof Error ? error.message : String(error) });
      else response.end();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', done);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    async close() {
      const closed = new Promise((done) => server.close(done));
      server.closeAllConnections();
      await closed;
      await session.close();
    },
  };
}

async function main(): Promise<void> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const server = await startApprovalServer({
    port: Number(process.env.PORT ?? 3000),
    dataDir: process.env.DATA_DIR ?? join(here, '.data'),
  });
  const offline = process.env.ANTHROPIC_API_KEY ? '' : ' (offline demo model; set ANTHROPIC_API_KEY for the real API)';
  console.log(`approval-web listening on ${server.url}${offline}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
