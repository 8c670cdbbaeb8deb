import { ModelError } from '../errors/model-error.js';

/**
 * How the API refused a request because of the media it carries: an image (or PDF) it could not
 * process or take (HTTP 400 `invalid_request_error` "Could not process image", or one that names
 * the block's source, "… image exceeds 5 MB maximum"), or a body too large for it (HTTP 413
 * `request_too_large`).
 */
export type MediaRefusal = 'unprocessable-image' | 'unprocessable-document' | 'too-large';

/**
 * The API's whole message "Could not process image" (its body says only that: no field names the
 * block), at the end of the error's message (`anthropicModel` puts it after
 * "… HTTP 400 invalid_request_error: "): never the phrase quoted inside another error's message.
 */
const COULD_NOT_PROCESS = /(?:^|: )could not process (image|pdf|document)\.?\s*$/i;

/**
 * A refusal that names the media block by its path in the request, e.g.
 * "messages.44.content.1.image.source.base64: image exceeds 5 MB maximum: 11641928 bytes > 5242880 bytes"
 * or one inside a tool result ("messages.168.content.0.tool_result.content.1.image.source.base64: …"):
 * whatever it says, it is about that image's (or document's) data.
 */
const MEDIA_SOURCE_PATH = /(?:^|: )messages\.\d+\.content\.\d+(?:\.tool_result\.content\.\d+)?\.(image|document)\.source\b[.\w]*: /i;

/**
 * Whether `error` is a refusal of the request's media, and which: HTTP 413 `request_too_large`,
 * or an HTTP 400 `invalid_request_error` whose message is the API's "Could not process image" (or
 * PDF) or names an image's or document's source by its path. Matched on the API's own message,
 * never on a phrase inside another refusal's text: a 400 for anything else drops no media.
 */
export function mediaRefusal(error: unknown): MediaRefusal | undefined {
  if (!ModelError.isInstance(error)) return undefined;
  if (error.status === 413 || error.errorType === 'request_too_large') return 'too-large';
  if (error.status !== 400 && error.status !== undefined) return undefined;
  if (error.errorType !== undefined && error.errorType !== 'invalid_request_error') return undefined;
  const problem = (COULD_NOT_PROCESS.exec(error.message) ?? MEDIA_SOURCE_PATH.exec(error.message))?.[1]?.toLowerCase();
  if (problem === undefined) return undefined;
  return problem === 'image' ? 'unprocessable-image' : 'unprocessable-document';
}
