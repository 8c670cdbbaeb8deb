import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../../errors/configuration-error.js';
import { bashEnvironment } from './bash-environment.js';
import { existingRealPath } from './real-path-sync.js';
import { DEFAULT_CHECKPOINT_MAX_BYTES, DEFAULT_CHECKPOINT_MAX_FILE_BYTES } from '../../tools/file-checkpoints.js';
import { validateWorkspaceToolsOptions } from '../validate-workspace-tools-options.js';
import { WorkspaceBoundary } from './workspace-boundary.js';
import type { SearchBudgetOptions } from './search-budget.js';
import type { WorkspaceToolsOptions } from './workspace-tools-options.js';

/** Upper bound of a Bash call's `timeout`, in milliseconds. */
export const MAX_BASH_TIMEOUT_MS = 600_000;

/** The resolved options every workspace tool shares. */
export interface WorkspaceContext {
  boundary: WorkspaceBoundary;
  maxReadBytes: number;
  maxReadLines: number;
  maxOutputChars: number;
  bashTimeoutMs: number;
  grepTimeoutMs: number;
  /** The bounds of one Glob or Grep walk (see `SearchBudget`). */
  search: SearchBudgetOptions;
  shell: string;
  env: Record<string, string | undefined>;
  /** Bounds of the file checkpoints Write and Edit keep for `rewindFiles`; `false` keeps none. */
  checkpoints: false | { maxBytes: number; maxFileBytes: number };
}

function realDirectory(option: string, directory: string): string {
  let real: string;
  try {
    real = existingRealPath(path.resolve(directory));
  } catch (cause) {
    throw new ConfigurationError(`workspaceTools: ${option} ${JSON.stringify(directory)} does not exist; pass an existing directory.`, { cause });
  }
  if (!statSync(real).isDirectory()) {
    throw new ConfigurationError(`workspaceTools: ${option} ${JSON.stringify(directory)} is not a directory.`);
  }
  return real;
}

let foundShell: string | undefined;

/** `/bin/bash` where there is one, else `/bin/sh`: looked for once per process, not per `workspaceTools()`. */
function defaultShell(): string {
  foundShell ??= existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
  return foundShell;
}

function positiveInteger(option: string, value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > max) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    throw new ConfigurationError(`workspaceTools: ${option} must be a positive integer${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, got ${shown}.`);
  }
  return value;
}

/**
 * Validates the options and resolves the workspace roots to real paths.
 * @throws ConfigurationError for an unknown option, a value of the wrong type or out of range (an
 * unknown tool name, a limit that is not a positive integer), or a directory that does not exist.
 */
export function resolveWorkspaceContext(options: WorkspaceToolsOptions): WorkspaceContext {
  validateWorkspaceToolsOptions(options);
  const cwd = realDirectory('cwd', options.cwd);
  const extra = (options.additionalDirectories ?? []).map((directory) => realDirectory('additionalDirectories entry', directory));
  const readRoots = (options.readOnlyDirectories ?? []).map((directory) => realDirectory('readOnlyDirectories entry', directory));
  const env = bashEnvironment({ hostEnv: process.env, inheritEnv: options.inheritEnv ?? [], env: options.env ?? {} });
  return {
    boundary: new WorkspaceBoundary({ cwd, roots: [cwd, ...extra.filter((root) => root !== cwd)], readRoots }),
    maxReadBytes: positiveInteger('maxReadBytes', options.maxReadBytes, 256 * 1024),
    maxReadLines: positiveInteger('maxReadLines', options.maxReadLines, 2000),
    maxOutputChars: positiveInteger('maxOutputChars', options.maxOutputChars, 30_000),
    bashTimeoutMs: positiveInteger('bashTimeoutMs', options.bashTimeoutMs, 120_000, MAX_BASH_TIMEOUT_MS),
    grepTimeoutMs: positiveInteger('grepTimeoutMs', options.grepTimeoutMs, 20_000, MAX_BASH_TIMEOUT_MS),
    search: {
      maxEntries: positiveInteger('maxSearchEntries', options.maxSearchEntries, 200_000),
      timeBudgetMs: positiveInteger('searchTimeBudgetMs', options.searchTimeBudgetMs, 30_000),
      now: options.now ?? (() => performance.now()),
    },
    shell: options.shell ?? defaultShell(),
    env,
    checkpoints:
      options.checkpoints === false
        ? false
        : {
            maxBytes: (typeof options.checkpoints === 'object' && options.checkpoints.maxBytes) || DEFAULT_CHECKPOINT_MAX_BYTES,
            maxFileBytes: (typeof options.checkpoints === 'object' && options.checkpoints.maxFileBytes) || DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
          },
  };
}
