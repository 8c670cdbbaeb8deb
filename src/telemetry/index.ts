export type { TracerLike, SpanLike, SpanOptionsLike, SpanAttributeValue } from './tracer-like.js';
export { withSpan, failSpan, failSpanWithoutText, spanAttributes, SPAN_KIND_CLIENT, SPAN_KIND_INTERNAL } from './with-span.js';
export { guardTracer, isGuardedTracer, type TracerOperation, type TracerFailureListener } from './guard-tracer.js';
