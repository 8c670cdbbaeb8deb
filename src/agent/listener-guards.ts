import { toError } from '../errors/describe-thrown.js';
import type { AgentEvent } from '../events/agent-event.js';
import { copyPermissionRequest } from '../permissions/steps/copy-question-part.js';

type PermissionRequestEvent = Extract<AgentEvent, { type: 'permission-request' }>;

/** A listener as the emitter holds it. */
type Listener = (event: unknown) => void;

/**
 * Wraps event listeners so that one that throws (or, async, rejects) neither stops the others nor the run: its error
 * goes to `report` (not for `error` listeners themselves, which would loop). Keeps the wrappers of
 * each listener by event type, so `off` removes one registration of it (the latest, as Node's
 * emitters do): a listener added twice is removed by two `off` calls.
 */
export class ListenerGuards {
  private readonly wrappers = new WeakMap<Listener, Map<string, Listener[]>>();
  private readonly report: (error: Error) => void;

  constructor(report: (error: Error) => void) {
    this.report = report;
  }

  /** The guarded wrapper to register for `listener` on `type` (`once`: forgotten when it fires). */
  wrap<E>(type: string, listener: (event: E) => void, once = false): Listener {
    // A permission question is read by every listener (each may build its card from it): each gets
    // its own copy, so one that sorts or edits its suggestions in place changes no other's.
    const own = type === 'permission-request';
    const guard: Listener = (event) => {
      if (once) this.forget(type, listener as Listener, guard);
      const fail = (error: unknown) => {
        if (type !== 'error') this.report(toError(error));
      };
      try {
        const returned: unknown = listener((own ? copyPermissionRequest(event as PermissionRequestEvent) : event) as E);
        // An async listener that rejects is reported like one that throws, never left as an
        // unhandled rejection (which ends a Node process by default).
        if (isThenable(returned)) returned.then(undefined, fail);
      } catch (error) {
        fail(error);
      }
    };
    let byType = this.wrappers.get(listener as Listener);
    if (!byType) this.wrappers.set(listener as Listener, (byType = new Map()));
    const registered = byType.get(type);
    if (registered) registered.push(guard);
    else byType.set(type, [guard]);
    return guard;
  }

  /** The latest wrapper registered for `listener` on `type` (forgotten from now on), or the listener itself. */
  unwrap<E>(type: string, listener: (event: E) => void): Listener {
    const byType = this.wrappers.get(listener as Listener);
    const registered = byType?.get(type);
    const guard = registered?.pop();
    if (registered?.length === 0) byType!.delete(type);
    return guard ?? (listener as Listener);
  }

  private forget(type: string, listener: Listener, guard: Listener): void {
    const byType = this.wrappers.get(listener);
    const registered = byType?.get(type);
    const index = registered?.lastIndexOf(guard) ?? -1;
    if (index < 0) return;
    registered!.splice(index, 1);
    if (registered!.length === 0) byType!.delete(type);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
