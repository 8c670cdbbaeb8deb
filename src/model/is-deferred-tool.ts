import type { RequestTool } from './model.js';

/**
 * A tool sent with `defer_loading: true`: found by a tool search, not read from the request's
 * prefix (the prompt cache's key and breakpoints leave it out).
 */
export function isDeferredTool(tool: RequestTool): boolean {
  return (tool as { defer_loading?: unknown }).defer_loading === true;
}
