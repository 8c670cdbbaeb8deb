import { describe, expect, it } from 'vitest';
import type { SpanLike, TracerLike } from 'agent-harness';
import { guardTracer, isGuardedTracer, withSpan, type TracerOperation } from '../../src/telemetry/index.js';

const quietSpan = (): SpanLike & { ended: number; own: () => string } => {
  const span = { ended: 0, setAttribute: () => span, setStatus: () => span, recordException: () => undefined, end: () => void span.ended++, own: () => 'the span\'s own method' };
  return span;
};

function guarded(tracer: TracerLike) {
  const failures: TracerOperation[] = [];
  return { tracer: guardTracer(tracer, ({ operation }) => failures.push(operation)), failures };
}

describe('guardTracer', () => {
  it('runs the work once without a span when startActiveSpan throws before calling it', async () => {
    let calls = 0;
    const { tracer, failures } = guarded({
      startActiveSpan() {
        throw new Error('no exporter');
      },
    });
    await expect(withSpan(tracer, 'work', {}, async () => ++calls)).resolves.toBe(1);
    expect(calls).toBe(1);
    expect(failures).toEqual(['startActiveSpan']);
  });

  it('runs the work once when the tracer calls back twice, and returns the work\'s value, not the tracer\'s', async () => {
    let calls = 0;
    const { tracer, failures } = guarded({
      startActiveSpan(_name, _options, fn) {
        fn(quietSpan());
        fn(quietSpan());
        return 'not the work\'s value' as never;
      },
    });
    await expect(withSpan(tracer, 'work', {}, async () => ++calls)).resolves.toBe(1);
    expect(calls).toBe(1);
    expect(failures).toEqual([]);
  });

  it('lets the work\'s own errors through, and still records and ends the span', async () => {
    const span = quietSpan();
    const { tracer, failures } = guarded({ startActiveSpan: (_name, _options, fn) => fn(span) });
    const own = new Error('the tool failed');
    await expect(withSpan(tracer, 'work', {}, async () => { throw own; })).rejects.toBe(own);
    expect(span.ended).toBe(1);
    expect(failures).toEqual([]);
  });

  it('lets a synchronous throw of the callback through as the work\'s, not the tracer\'s', () => {
    const { tracer, failures } = guarded({ startActiveSpan: (_name, _options, fn) => fn(quietSpan()) });
    const own = new Error('thrown at once');
    expect(() => tracer.startActiveSpan('work', {}, () => { throw own; })).toThrow(own);
    expect(failures).toEqual([]);
  });

  it('hands the work a span whose methods never throw, and which is still the tracer\'s span otherwise', async () => {
    const span = quietSpan();
    span.end = () => {
      throw new Error('already ended');
    };
    const { tracer, failures } = guarded({ startActiveSpan: (_name, _options, fn) => fn(span) });
    const seen = await withSpan(tracer, 'work', {}, async (given) => (given as typeof span).own());
    expect(seen).toBe('the span\'s own method');
    expect(failures).toEqual(['span.end']);
  });

  it('does not wrap a guarded tracer again, and a listener that throws changes nothing', async () => {
    const inner = guardTracer({ startActiveSpan() { throw new Error('x'); } }, () => { throw new Error('the listener broke'); });
    expect(isGuardedTracer(inner)).toBe(true);
    expect(guardTracer(inner, () => undefined)).toBe(inner);
    await expect(withSpan(inner, 'work', {}, async () => 'done')).resolves.toBe('done');
  });
});
