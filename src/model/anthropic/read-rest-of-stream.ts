/**
 * Events read after `message_stop` at most before the request is cut: the API sends none (the
 * response ends), so a stream that goes on is not one to wait for.
 */
export const MAX_EVENTS_AFTER_STOP = 16;

/**
 * How long the response may take to end after `message_stop` (ms) before the request is cut. The
 * API ends it at once; the last chunk of the HTTP body may come in a later packet.
 */
export const END_AFTER_STOP_MS = 2_000;

/** A timer handle as Node and browsers give it (Node's can be `unref`ed). */
type Timer = ReturnType<typeof setTimeout> & { unref?: () => void };

/**
 * Reads what is left of a response stream after its `message_stop`, in the background, and drops
 * it: a response read to its end hands its connection back to the client's pool, where one given
 * up midway (the iterator's `return()`, which aborts the request) closes it, and the next model
 * call would open a new one (a TCP and TLS handshake to the API, on every turn). The end normally
 * follows `message_stop` at once; when it does not come within {@link END_AFTER_STOP_MS}, or more
 * than {@link MAX_EVENTS_AFTER_STOP} events come instead, `cancel` (or, without it, `return()`) cuts
 * the request. Never throws and never rejects: the message is complete whatever happens here.
 *
 * @param iterator - the event stream's iterator, past `message_stop`.
 * @param cancel - aborts the HTTP request at once (the SDK stream's `controller.abort()`); a
 *   `return()` of an async generator waits for the `next()` in progress, so it cannot cut a stream
 *   that hangs.
 */
export function readRestOfStream(iterator: AsyncIterator<unknown>, cancel: (() => void) | undefined): void {
  let done = false;
  const cut = (): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    try {
      if (cancel) cancel();
      else void Promise.resolve(iterator.return?.()).catch(ignore);
    } catch {
      // A cancel that throws leaves the request to the client's own timeouts.
    }
  };
  const timer: Timer = setTimeout(cut, END_AFTER_STOP_MS);
  // The wait alone must not keep a Node process alive (the request it waits on does, as before).
  timer.unref?.();
  void (async () => {
    for (let read = 0; read < MAX_EVENTS_AFTER_STOP && !done; read++) {
      if ((await iterator.next()).done) {
        done = true;
        clearTimeout(timer);
        return;
      }
    }
    cut();
  })().catch(() => {
    // A transport error after message_stop: the connection is gone either way.
    done = true;
    clearTimeout(timer);
  });
}

function ignore(): void {}
