import type { SpanAttributeValue, SpanLike, SpanOptionsLike, TracerLike } from './tracer-like.js';

/** Where the host's tracer failed: its `startActiveSpan`, or one of the span's methods. */
export type TracerOperation = 'startActiveSpan' | 'span.setAttribute' | 'span.setStatus' | 'span.recordException' | 'span.end';

/** Hears each failure of the host's tracer (the guard reports them all; the listener decides how often to tell). */
export type TracerFailureListener = (failure: { operation: TracerOperation; error: unknown }) => void;

const GUARDED = Symbol('agent-harness.guarded-tracer');

/** A span that records nothing: the work of a span the tracer failed to start runs with it. */
const NO_SPAN: SpanLike = { setAttribute: () => undefined, setStatus: () => undefined, recordException: () => undefined, end: () => undefined };

/** True for a tracer {@link guardTracer} made (a subagent inherits its parent's guarded tracer; it is not wrapped twice). */
export function isGuardedTracer(tracer: TracerLike): boolean {
  return (tracer as { [GUARDED]?: boolean })[GUARDED] === true;
}

/**
 * The host's tracer made unable to break a run: `startActiveSpan` runs its callback exactly once
 * and returns the callback's own value, whatever the tracer does (throws before or after calling
 * it, never calls it, calls it twice, returns something else); when the tracer did not call it,
 * the callback runs with a span that records nothing. The span handed to the callback forwards
 * to the tracer's span (a tool can still use it as one), but its methods never throw. Every
 * failure of the tracer goes to `onFailure`; the callback's own errors are not the tracer's and
 * reach the caller unchanged.
 * @param tracer - The host's tracer, as given (`createAgent({ tracer })`).
 * @param onFailure - Told of each failure of the tracer, with the operation that failed.
 */
export function guardTracer(tracer: TracerLike, onFailure: TracerFailureListener): TracerLike {
  if (isGuardedTracer(tracer)) return tracer;
  const fail = (operation: TracerOperation, error: unknown) => {
    try {
      onFailure({ operation, error });
    } catch {
      // A failing listener cannot be told either; the span is dropped all the same.
    }
  };
  return {
    [GUARDED]: true,
    startActiveSpan<T>(name: string, options: SpanOptionsLike, fn: (span: SpanLike) => T): T {
      let outcome: { value: T } | { thrown: unknown } | undefined;
      const once = (span: SpanLike): T => {
        if (!outcome) {
          const usable = (typeof span === 'object' || typeof span === 'function') && span !== null;
          outcome = attempt(() => fn(usable ? guardSpan(span, fail) : NO_SPAN));
          // Reported once the work has started, so a run's `run-start` comes before the report.
          if (!usable) fail('startActiveSpan', new Error(`startActiveSpan passed ${span === null ? 'null' : typeof span} to its callback instead of a span`));
        }
        if ('thrown' in outcome) throw outcome.thrown;
        return outcome.value;
      };
      let failure: { error: unknown } | undefined;
      try {
        tracer.startActiveSpan(name, options, once);
      } catch (error) {
        // The work's own error is not the tracer's: it is thrown below, as it would be untraced.
        if (!outcome || !('thrown' in outcome) || outcome.thrown !== error) failure = { error };
      }
      if (!outcome) {
        failure ??= { error: new Error(`startActiveSpan("${name}") returned without calling its callback`) };
        outcome = attempt(() => fn(NO_SPAN));
      }
      if (failure) fail('startActiveSpan', failure.error);
      if ('thrown' in outcome) throw outcome.thrown;
      return outcome.value;
    },
  } as TracerLike;
}

/** `work()`'s value or what it threw. */
function attempt<T>(work: () => T): { value: T } | { thrown: unknown } {
  try {
    return { value: work() };
  } catch (thrown) {
    return { thrown };
  }
}

/** The four methods the runtime calls, made unable to throw; anything else is the span's own (bound to it). */
function guardSpan(span: SpanLike, fail: (operation: TracerOperation, error: unknown) => void): SpanLike {
  const guarded: SpanLike = {
    setAttribute: (key: string, value: SpanAttributeValue) => call('span.setAttribute', () => span.setAttribute(key, value)),
    setStatus: (status: { code: number; message?: string }) => call('span.setStatus', () => span.setStatus(status)),
    recordException: (exception: Error | string) => call('span.recordException', () => span.recordException(exception)),
    end: () => void call('span.end', () => span.end()),
  };
  function call(operation: TracerOperation, method: () => unknown): unknown {
    try {
      return method();
    } catch (error) {
      fail(operation, error);
      return undefined;
    }
  }
  return new Proxy(span, {
    get(target, key) {
      if (Object.hasOwn(guarded, key)) return guarded[key as keyof SpanLike];
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
