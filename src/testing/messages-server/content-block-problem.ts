/** A content block as received: any JSON object with a `type`. */
export type RawBlock = Record<string, unknown>;

/** Where a block sits, for the `messages.N.content.P` prefix of the API's messages. */
export interface BlockPlace {
  /** Index of the message in `messages`. */
  message: number;
  /** Index of the block in the message's `content`. */
  position: number;
}

const at = (place: BlockPlace) => `messages.${place.message}.content.${place.position}`;

/**
 * Schema problems of one block the real API reports before any conversation rule (its pydantic
 * layer): an image without `source`, a thinking block without `signature`, `cache_control` on a
 * thinking or redacted thinking block.
 */
export function blockSchemaProblem(block: RawBlock, place: BlockPlace): string | undefined {
  if (block.type === 'image' && block.source === undefined) return `${at(place)}.image.source: Field required`;
  if (block.type === 'thinking' && typeof block.signature !== 'string') return `${at(place)}.thinking.signature: Field required`;
  if ((block.type === 'thinking' || block.type === 'redacted_thinking') && block.cache_control) {
    return `${at(place)}.${block.type}.cache_control: Extra inputs are not permitted`;
  }
  return undefined;
}

/**
 * Text rules of one block: `cache_control` on empty text, then empty and whitespace-only text.
 * @param allowBlankText - true for the final assistant message, whose trailing-whitespace rule
 *   speaks for whitespace-only text.
 */
export function textBlockProblem(block: RawBlock, place: BlockPlace, allowBlankText: boolean): string | undefined {
  if (block.type !== 'text' || typeof block.text !== 'string') return undefined;
  if (block.text === '' && block.cache_control) return `${at(place)}.text: cache_control cannot be set for empty text blocks`;
  if (block.text === '') return emptyTextMessage;
  if (!allowBlankText && block.text.trim() === '') return blankTextMessage;
  return undefined;
}

/** The real API's message for a text block with no text. */
export const emptyTextMessage = 'messages: text content blocks must be non-empty';

/** The real API's message for a text block (or string content) of only whitespace. */
export const blankTextMessage = 'messages: text content blocks must contain non-whitespace text';
