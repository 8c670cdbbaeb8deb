import type { SpanAttributeValue, SpanLike, TracerLike } from './tracer-like.js';

/** OpenTelemetry's `SpanStatusCode.ERROR` and `SpanKind.CLIENT` / `INTERNAL`. */
const STATUS_ERROR = 2;
export const SPAN_KIND_INTERNAL = 0;
export const SPAN_KIND_CLIENT = 2;

/** Attributes without the undefined ones (OpenTelemetry drops them with a warning). */
export function spanAttributes(attributes: Record<string, SpanAttributeValue | undefined>): Record<string, SpanAttributeValue> {
  const defined: Record<string, SpanAttributeValue> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) defined[key] = value;
  return defined;
}

/**
 * Runs `fn` inside an active span of the host's tracer (child spans started inside it nest under
 * it), ending the span when `fn` settles and recording a thrown error. Callers without a tracer
 * skip it (and the span's name and attributes) altogether: the loop's hot path builds nothing.
 */
export function withSpan<T>(
  tracer: TracerLike,
  name: string,
  options: { kind?: number; attributes?: Record<string, SpanAttributeValue | undefined> },
  fn: (span: SpanLike) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { kind: options.kind ?? SPAN_KIND_INTERNAL, attributes: spanAttributes(options.attributes ?? {}) }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      const message = textOf(error);
      span.recordException(error instanceof Error ? error : message);
      span.setStatus({ code: STATUS_ERROR, message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A thrown value's text; never throws (`Object.create(null)` has no string form). The errors
 * folder's `describeThrown`, which telemetry, a bottom layer, may not import.
 */
function textOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'a thrown object with no text form';
  }
}

/** Marks a span as failed, with the error. */
export function failSpan(span: SpanLike | undefined, error: Error): void {
  span?.recordException(error);
  span?.setStatus({ code: STATUS_ERROR, message: error.message });
}

/**
 * Marks a span as failed with the kind of failure only (`error.type`), no text: for a failure
 * whose text comes from the work itself (a tool's error result may quote a token, a URL with its
 * query, a command's output), which a trace backend would keep and show to whoever reads traces.
 */
export function failSpanWithoutText(span: SpanLike, errorType: string): void {
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: STATUS_ERROR });
}
