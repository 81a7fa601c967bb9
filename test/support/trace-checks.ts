// What the tracing tests check of a collected trace (test/support/otlp-collector.ts).
import type { CollectedSpan } from './otlp-collector.ts';

/** OTLP's span kinds. */
export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

/**
 * The spans of a trace whose parent is neither the caller's span (`rootParent`) nor another span
 * of the trace: empty when the trace is one tree hanging from the caller.
 */
export function connectedTrace(spans: CollectedSpan[], rootParent: string): string[] {
  const ids = new Set(spans.map((span) => span.spanId));
  return spans
    .filter((span) => span.parentSpanId !== rootParent && !ids.has(span.parentSpanId))
    .map((span) => `${span.service}:${span.name} (parent ${span.parentSpanId || 'none'})`);
}
