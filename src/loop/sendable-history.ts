import type { Message } from '../model/messages.js';
import type { RequestTool } from '../model/model.js';
import type { HistoryScan } from '../runtime/history-scan.js';
import { capRequestImages } from './cap-request-images.js';
import { toolBlocksAsText } from './tool-blocks-as-text.js';

/**
 * The history as a request with `tools` may carry it: past the images one request may carry, the
 * oldest are notes (see capRequestImages), and a request that defines no tools carries its tool
 * calls and results as text (see toolBlocksAsText). `messages` itself when nothing needs changing.
 */
export function sendableHistory(messages: readonly Message[], tools: readonly RequestTool[], slot?: HistoryScan): readonly Message[] {
  return capRequestImages(tools.length === 0 ? toolBlocksAsText(messages, slot) : messages, slot);
}
