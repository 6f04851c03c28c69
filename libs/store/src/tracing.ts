/**
 * The one way factledger's libraries open a trace span: through the OpenTelemetry API only, never
 * an SDK. With no tracer provider registered (a host that wants no telemetry, the benchmarks, the
 * library inside an agent) every span is the API's no-op and costs a function call; the server
 * registers one (apps/server/src/telemetry.ts) that exports the spans over OTLP when asked and
 * reads its Prometheus metrics off them as they end.
 *
 * Span names are the contract between the two: SPAN below lists them, and the server's metrics
 * name the same constants.
 */
import { type Attributes, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
export type { Span } from '@opentelemetry/api';
import type { AppendContext, AppendFollowUp, AppendResult, EventStore, StreamAppend } from './event-store.port';

/** The spans factledger's libraries open, by name; their attributes are under `factledger.*`. */
export const SPAN = {
  /** A command or query as the Nest module runs it (the name follows: `factledger.command AssertMemoryCommand`). */
  command: 'factledger.command',
  /** One append to the log, with what projects inline in its transaction. */
  append: 'factledger.append',
  /** One page a checkpointed consumer (a projection, the recall index, the saga) applied. */
  consume: 'factledger.consume',
  /** One context assembly, with a child span per stage (`factledger.recall.<stage>`). */
  recall: 'factledger.recall',
  /** One message ingested; each admission decision is a span event named `admission`. */
  ingest: 'factledger.ingest',
} as const;

const tracer = trace.getTracer('factledger');

/**
 * Runs `work` inside a span named `name` (active for everything it awaits), ends the span when it
 * settles, and marks it failed with the error when it throws.
 */
export function traced<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * `store.append` inside a SPAN.append span: how many events to how many streams, and then the
 * position and whether the command had landed before (a retried command id). `inline` says whether
 * the read models take the events in the append's own transaction (a follow-up).
 */
export function tracedAppend(store: Pick<EventStore, 'append'>, context: AppendContext, appends: StreamAppend[], followUp?: AppendFollowUp): Promise<AppendResult> {
  const attributes: Attributes = {
    'factledger.tenant': context.tenant,
    'factledger.streams': appends.length,
    'factledger.events': appends.reduce((n, a) => n + a.events.length, 0),
    'factledger.inline_projection': followUp !== undefined,
  };
  return traced(SPAN.append, attributes, async (span) => {
    const result = await store.append(context, appends, followUp);
    span.setAttributes({ 'factledger.position': result.position, 'factledger.duplicate': result.duplicate });
    return result;
  });
}
