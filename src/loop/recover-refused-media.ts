import type { AgentCore } from '../runtime/agent-core.js';
import { ModelError } from '../errors/model-error.js';
import { describeThrown } from '../errors/describe-thrown.js';
import type { ModelResponse } from '../model/model.js';
import { dropRefusedMedia, mediaRefusal, type MediaRefusal, type MediaScope } from './drop-refused-media.js';

/**
 * Recovers a turn the API refused because of its media (see {@link mediaRefusal}): replaces the
 * media it blames with notes (the blocks its message names by their path; without one, those sent
 * since the model's last answer first, then the whole history), records the repaired history as a
 * `checkpoint` (so a reload does not send the media again), says so in a `warning` event, and
 * sends the turn again with `send`: at most twice in all.
 * @param refused - the refusal (`mediaRefusal(error)` is defined).
 * @param send - prepares the turn's request from the repaired history and streams it.
 * @throws the refusal itself when the history holds no media to drop; a {@link ModelError} that
 *   says what was dropped when the API refuses the repaired request the same way; any other
 *   failure of `send` as it is.
 */
export async function recoverRefusedMedia(core: AgentCore, refused: ModelError, send: () => Promise<ModelResponse>): Promise<ModelResponse> {
  let refusal = mediaRefusal(refused)!;
  let last = refused;
  const droppedInAll = { images: 0, documents: 0 };
  const scopes: MediaScope[] = ['newest', 'all'];
  for (const scope of scopes) {
    // The refusal's own message names the block when it can (`messages.3.content.1.image.source.base64: …`).
    const dropped = dropRefusedMedia(core.state.messages, refusal, scope, last.message);
    if (dropped === undefined) continue;
    core.commit({ kind: 'checkpoint', state: { ...core.state, messages: dropped.messages }, reason: 'media-refused' });
    droppedInAll.images += dropped.images;
    droppedInAll.documents += dropped.documents;
    core.emit({ type: 'warning', source: 'model', message: droppedWarning(dropped, refusal, last) });
    try {
      return await send();
    } catch (error) {
      const again = mediaRefusal(error);
      if (again === undefined || !ModelError.isInstance(error)) throw error;
      refusal = again;
      last = error;
    }
  }
  if (last === refused && droppedInAll.images + droppedInAll.documents === 0) throw refused;
  throw refusedAgain(last, droppedInAll);
}

function count(images: number, documents: number): string {
  const parts: string[] = [];
  if (images > 0) parts.push(`${images} image${images === 1 ? '' : 's'}`);
  if (documents > 0) parts.push(`${documents} document${documents === 1 ? '' : 's'}`);
  return parts.join(' and ');
}

function refusedBecause(refusal: MediaRefusal, error: ModelError): string {
  const status = error.status === undefined ? '' : `HTTP ${error.status} `;
  return refusal === 'too-large' ? `the request was too large (${status}${error.errorType ?? 'request_too_large'})` : `the API could not process it (${status}"${apiMessage(error)}")`;
}

function apiMessage(error: ModelError): string {
  const text = describeThrown(error);
  const match = /could not process[^"]*?(?=["}]|$)/i.exec(text);
  return (match?.[0] ?? text).trim().replace(/\.$/, '').slice(0, 200);
}

function droppedWarning(dropped: { images: number; documents: number }, refusal: MediaRefusal, error: ModelError): string {
  const what = count(dropped.images, dropped.documents);
  return (
    `The model's request was refused because of its media: ${refusedBecause(refusal, error)}. ${what[0]!.toUpperCase()}${what.slice(1)} in the history ${dropped.images + dropped.documents === 1 ? 'was' : 'were'} replaced by a note saying so (also in the session store), and the turn is sent again. ` +
    (refusal === 'too-large' ? 'Send smaller images or documents (the API takes up to 32 MB per request).' : 'Check the media before sending it (a valid JPEG, PNG, GIF or WebP image of at most 5 MB; a PDF that opens).')
  );
}

function refusedAgain(error: ModelError, dropped: { images: number; documents: number }): ModelError {
  return new ModelError(
    `The API refused the request again after ${count(dropped.images, dropped.documents)} in the history ${dropped.images + dropped.documents === 1 ? 'was' : 'were'} replaced by notes: ${describeThrown(error)} ` +
      'The repaired history is kept. If the refusal names media still in the history, remove it (a fork or a new session), or, for a request too large, compact the history (agent.compact()).',
    { cause: error, retryable: false, ...(error.status === undefined ? {} : { status: error.status }), ...(error.errorType === undefined ? {} : { errorType: error.errorType }), ...(error.requestId === undefined ? {} : { requestId: error.requestId }) },
  );
}
