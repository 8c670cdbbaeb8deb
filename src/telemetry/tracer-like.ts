/**
 * The parts of an OpenTelemetry `Tracer` and `Span` (`@opentelemetry/api`) the runtime uses,
 * described structurally so the core needs no OpenTelemetry package: pass the host's tracer, e.g.
 * `trace.getTracer('my-app')`.
 */
export interface TracerLike {
  startActiveSpan<T>(name: string, options: SpanOptionsLike, fn: (span: SpanLike) => T): T;
}

/** Options for a new span: its kind and first attributes. */
export interface SpanOptionsLike {
  /** `SpanKind`: 0 internal, 2 client. */
  kind?: number;
  attributes?: Record<string, SpanAttributeValue>;
}

/** A span attribute value. */
export type SpanAttributeValue = string | number | boolean | string[];

/** The parts of a span the runtime uses. */
export interface SpanLike {
  setAttribute(key: string, value: SpanAttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): unknown;
  end(): void;
}
