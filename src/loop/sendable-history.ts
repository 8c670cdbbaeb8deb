import type { Message } from '../model/messages.js';
import type { RequestTool } from '../model/model.js';
import { capRequestImages, type MediaTallySlot } from './cap-request-images.js';
import { toolBlocksAsText, type ToolBlockScanSlot } from './tool-blocks-as-text.js';

/** What an agent keeps of its history between requests, so that each request looks at the new messages only. */
export type HistoryScanSlot = MediaTallySlot & ToolBlockScanSlot;

/**
 * The history as a request with `tools` may carry it: past the images one request may carry, the
 * oldest are notes (see capRequestImages), and a request that defines no tools carries its tool
 * calls and results as text (see toolBlocksAsText). `messages` itself when nothing needs changing.
 */
export function sendableHistory(messages: readonly Message[], tools: readonly RequestTool[], slot?: HistoryScanSlot): readonly Message[] {
  return capRequestImages(tools.length === 0 ? toolBlocksAsText(messages, slot) : messages, slot);
}
