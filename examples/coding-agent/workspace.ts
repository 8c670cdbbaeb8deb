/**
 * The work directory: a copy of the sample project, with the session and plan stores inside it
 * (`.agent-harness/`, which the project's .gitignore hides from Glob and Grep).
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlanStore, SessionStore } from 'agent-harness';
import { filePlanStore, fileSessionStore } from 'agent-harness/node';

const SAMPLE_PROJECT = fileURLToPath(new URL('./sample-project/', import.meta.url));

/** Options of {@link openWorkspace}. */
export interface OpenWorkspaceOptions {
  /** The work directory (absolute). */
  workdir: string;
  /** The session id kept in it. */
  session: string;
  /** Drop the stored session and copy the sample project again. */
  fresh: boolean;
}

/** An opened work directory. */
export interface Workspace {
  dir: string;
  sessionsDir: string;
  plansDir: string;
  store: SessionStore;
  planStore: PlanStore;
  /** Whether the store already holds the session (then the agent resumes it). */
  resumable: boolean;
}

/** A problem with the work directory, reported as a sentence without a stack. */
export class WorkspaceError extends Error {}

/**
 * Opens the work directory: resumes the stored session when there is one, else copies the
 * sample project in (only into a new or empty folder, or one this example made).
 */
export async function openWorkspace(options: OpenWorkspaceOptions): Promise<Workspace> {
  const dir = options.workdir;
  const stateDir = join(dir, '.agent-harness');
  const sessionsDir = join(stateDir, 'sessions');
  const plansDir = join(stateDir, 'plans');
  if (options.fresh) await rm(stateDir, { recursive: true, force: true });
  const store = fileSessionStore({ dir: sessionsDir });
  const planStore = filePlanStore({ dir: plansDir });
  const resumable = (await store.list()).includes(options.session);
  if (!resumable) {
    const entries = existsSync(dir) ? await readdir(dir) : [];
    if (entries.length > 0 && !entries.includes('.agent-harness') && !options.fresh) {
      throw new WorkspaceError(`${dir} already holds other files. Pick a new or empty folder with --workdir, or pass --fresh to copy the sample project into it anyway.`);
    }
    await mkdir(dir, { recursive: true });
    await cp(SAMPLE_PROJECT, dir, { recursive: true, force: true });
  }
  return { dir, sessionsDir, plansDir, store, planStore, resumable };
}

/** How the session's last run ended: a `run-end` status, `unfinished` (the process died), or `none`. */
export async function lastRunStatus(store: SessionStore, sessionId: string): Promise<string> {
  let status = 'none';
  for await (const entry of store.load(sessionId)) {
    if (entry.kind === 'run-start') status = 'unfinished';
    if (entry.kind === 'run-end') status = entry.status;
  }
  return status;
}
