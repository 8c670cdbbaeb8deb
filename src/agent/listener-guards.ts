import { toError } from '../errors/describe-thrown.js';

/** A listener as the emitter holds it. */
type Listener = (event: unknown) => void;

/**
 * Wraps event listeners so that one that throws neither stops the others nor the run: its error
 * goes to `report` (not for `error` listeners themselves, which would loop). Keeps the wrapper of
 * each listener by event type, so `off` removes the right one.
 */
export class ListenerGuards {
  private readonly wrappers = new WeakMap<Listener, Map<string, Listener>>();
  private readonly report: (error: Error) => void;

  constructor(report: (error: Error) => void) {
    this.report = report;
  }

  /** The guarded wrapper to register for `listener` on `type`. */
  wrap<E>(type: string, listener: (event: E) => void): Listener {
    const guard: Listener = (event) => {
      try {
        listener(event as E);
      } catch (error) {
        if (type !== 'error') this.report(toError(error));
      }
    };
    let byType = this.wrappers.get(listener as Listener);
    if (!byType) this.wrappers.set(listener as Listener, (byType = new Map()));
    byType.set(type, guard);
    return guard;
  }

  /** The wrapper registered for `listener` on `type` (forgotten from now on), or the listener itself. */
  unwrap<E>(type: string, listener: (event: E) => void): Listener {
    const byType = this.wrappers.get(listener as Listener);
    const guard = byType?.get(type);
    byType?.delete(type);
    return guard ?? (listener as Listener);
  }
}
