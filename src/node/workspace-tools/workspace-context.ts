import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../../errors/configuration-error.js';
import { WorkspaceBoundary } from './workspace-boundary.js';
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
  shell: string;
  env: Record<string, string | undefined>;
}

function realDirectory(option: string, directory: string): string {
  let real: string;
  try {
    real = realpathSync(path.resolve(directory));
  } catch (cause) {
    throw new ConfigurationError(`workspaceTools: ${option} ${JSON.stringify(directory)} does not exist; pass an existing directory.`, { cause });
  }
  if (!statSync(real).isDirectory()) {
    throw new ConfigurationError(`workspaceTools: ${option} ${JSON.stringify(directory)} is not a directory.`);
  }
  return real;
}

function positiveInteger(option: string, value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0 || value > max) {
    throw new ConfigurationError(`workspaceTools: ${option} must be a positive integer${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, got ${value}.`);
  }
  return value;
}

/**
 * Validates the options and resolves the workspace roots to real paths.
 * @throws ConfigurationError when `cwd` or an additional directory does not exist, or a limit is not a positive integer.
 */
export function resolveWorkspaceContext(options: WorkspaceToolsOptions): WorkspaceContext {
  if (typeof options?.cwd !== 'string' || options.cwd === '') {
    throw new ConfigurationError('workspaceTools: cwd is required; pass the directory the agent works in.');
  }
  const cwd = realDirectory('cwd', options.cwd);
  const extra = (options.additionalDirectories ?? []).map((directory) => realDirectory('additionalDirectories entry', directory));
  const env = { ...(options.env ?? process.env) };
  if (env.GIT_OPTIONAL_LOCKS === undefined) env.GIT_OPTIONAL_LOCKS = '0';
  return {
    boundary: new WorkspaceBoundary({ cwd, roots: [cwd, ...extra.filter((root) => root !== cwd)] }),
    maxReadBytes: positiveInteger('maxReadBytes', options.maxReadBytes, 256 * 1024),
    maxReadLines: positiveInteger('maxReadLines', options.maxReadLines, 2000),
    maxOutputChars: positiveInteger('maxOutputChars', options.maxOutputChars, 30_000),
    bashTimeoutMs: positiveInteger('bashTimeoutMs', options.bashTimeoutMs, 120_000, MAX_BASH_TIMEOUT_MS),
    shell: options.shell ?? (existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh'),
    env,
  };
}
