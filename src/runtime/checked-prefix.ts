import type { TextBlock } from '../model/messages.js';
import type { RequestTool } from '../model/model.js';
import type { RequestPrefix } from '../state/session-state.js';

/**
 * The request prefix a run's start last checked for an agent (see `recordRequestPrefix`): while the
 * agent sends the same arrays and the stored prefix is the one seen, nothing is compared again.
 */
export interface CheckedPrefix {
  system: TextBlock[];
  tools: RequestTool[];
  toolCount: number;
  recorded: RequestPrefix | undefined;
}
