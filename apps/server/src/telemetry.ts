/**
 * What operators see of the server: OpenTelemetry traces and Prometheus metrics.
 *
 * The libraries open spans through the OpenTelemetry API only (@factledger/store tracing.ts,
 * `SPAN`): a command, its append (with what projects inline), each page a consumer applies, a
 * recall and its stages, a message's ingest with one event per admission decision. The server
 * registers the process's tracer provider once (`processTelemetry`), with two processors:
 * - `SpanMetrics` reads the Prometheus metrics off every span as it ends, so traces and metrics
 *   count the same things;
 * - when OTEL_EXPORTER_OTLP_ENDPOINT is set, a batch exporter sends the spans over OTLP/HTTP
 *   (the exporter reads the OTEL_EXPORTER_OTLP_* variables itself). Unset: nothing leaves.
 *
 * Every span is recorded (AlwaysOn): the metrics need them all. Sampling, where wanted, belongs
 * in the collector.
 *
 * HTTP requests get their span and their metrics here, in `httpTelemetry`, the first middleware.
 * Lag per consumer is read at each scrape from the store (`appMetrics`), not kept.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, type HrTime, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, NodeTracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type LedgerHandle, RE_REVIEW } from '@factledger/ledger';
import { consumerLag } from '@factledger/projections';
import { RECALL_INDEX, type RecallHandle } from '@factledger/recall';
import { SPAN } from '@factledger/store';

const seconds = (t: HrTime): number => t[0] + t[1] / 1e9;
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The process-wide metrics: what spans and requests add to as they end. */
function processMetrics(registry: Registry) {
  const registers = [registry];
  return {
    requests: new Counter({ name: 'factledger_http_requests_total', help: 'HTTP requests finished, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers }),
    requestSeconds: new Histogram({
      name: 'factledger_http_request_duration_seconds',
      help: 'HTTP request duration, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    commandSeconds: new Histogram({
      name: 'factledger_command_duration_seconds',
      help: 'Commands and queries as the ledger module runs them, by message and outcome',
      labelNames: ['command', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    appends: new Counter({ name: 'factledger_appends_total', help: 'Appends to the log, by outcome (appended, duplicate: a retried command id, failed)', labelNames: ['outcome'], registers }),
    appendedEvents: new Counter({ name: 'factledger_appended_events_total', help: 'Events appended to the log', registers }),
    appendSeconds: new Histogram({ name: 'factledger_append_duration_seconds', help: 'One append, with what projects inline in its transaction', buckets: LATENCY_BUCKETS, registers }),
    consumedEvents: new Counter({ name: 'factledger_consumer_events_total', help: 'Events applied by each checkpointed consumer in this process', labelNames: ['consumer'], registers }),
    consumerPages: new Counter({
      name: 'factledger_consumer_pages_total',
      help: 'Pages of the log taken by each consumer in this process, by outcome (applied, busy, moved, failed)',
      labelNames: ['consumer', 'outcome'],
      registers,
    }),
    recallSeconds: new Histogram({ name: 'factledger_recall_duration_seconds', help: 'One context assembly, end to end', labelNames: ['outcome'], buckets: LATENCY_BUCKETS, registers }),
    recallStageSeconds: new Histogram({
      name: 'factledger_recall_stage_duration_seconds',
      help: 'A recall stage that waits on something (wait, embed, pool, recheck)',
      labelNames: ['stage'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    gateDecisions: new Counter({
      name: 'factledger_gate_decisions_total',
      help: 'Admission decisions on ingested messages, by verdict and the gate that decided',
      labelNames: ['verdict', 'gate'],
      registers,
    }),
  };
}

type ProcessMetrics = ReturnType<typeof processMetrics>;

/** Turns each library span, as it ends, into the metrics above. */
export class SpanMetrics implements SpanProcessor {
  constructor(private readonly metrics: ProcessMetrics) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    const m = this.metrics;
    const took = seconds(span.duration);
    const failed = span.status.code === SpanStatusCode.ERROR;
    const a = span.attributes;
    if (span.name.startsWith(`${SPAN.command} `)) {
      m.commandSeconds.observe({ command: span.name.slice(SPAN.command.length + 1), outcome: failed ? 'error' : 'ok' }, took);
    } else if (span.name === SPAN.append) {
      m.appends.inc({ outcome: failed ? 'failed' : a['factledger.duplicate'] ? 'duplicate' : 'appended' });
      if (!failed && !a['factledger.duplicate']) m.appendedEvents.inc(Number(a['factledger.events'] ?? 0));
      m.appendSeconds.observe(took);
    } else if (span.name === SPAN.consume) {
      const consumer = String(a['factledger.consumer']);
      m.consumerPages.inc({ consumer, outcome: failed ? 'failed' : String(a['factledger.outcome']) });
      m.consumedEvents.inc({ consumer }, Number(a['factledger.events'] ?? 0));
    } else if (span.name === SPAN.recall) {
      m.recallSeconds.observe({ outcome: failed ? 'error' : 'ok' }, took);
    } else if (span.name.startsWith(`${SPAN.recall}.`)) {
      m.recallStageSeconds.observe({ stage: span.name.slice(SPAN.recall.length + 1) }, took);
    } else if (span.name === SPAN.ingest) {
      for (const e of span.events) {
        if (e.name === 'admission') m.gateDecisions.inc({ verdict: String(e.attributes?.['factledger.verdict']), gate: String(e.attributes?.['factledger.gate']) });
      }
    }
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface ProcessTelemetry {
  /** The process's metrics (and Node's own: memory, event loop, GC); `/metrics` adds each app's lag to them. */
  registry: Registry;
  metrics: ProcessMetrics;
  /** Whether spans are exported over OTLP (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT was set at start). */
  exporting: boolean;
  /** Sends what is buffered (the exporter's batch); for a clean stop and for tests. */
  flush(): Promise<void>;
}

let installed: ProcessTelemetry | null = null;

/**
 * The process's telemetry, installed on first use: the tracer provider (registered globally, with
 * the async-hooks context manager that carries the active span across awaits) and the metrics.
 * A tracer provider is process-wide in OpenTelemetry, so this is too: every server in the process
 * shares it.
 */
export function processTelemetry(env: NodeJS.ProcessEnv = process.env): ProcessTelemetry {
  if (installed) return installed;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metrics = processMetrics(registry);
  const exporting = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const processors: SpanProcessor[] = [new SpanMetrics(metrics)];
  if (exporting) processors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'factledger' }),
    sampler: new AlwaysOnSampler(),
    spanProcessors: processors,
  });
  provider.register();
  installed = { registry, metrics, exporting, flush: () => provider.forceFlush() };
  return installed;
}

/** The matched route's pattern (`/v1/tenants/:tenant/memories`), never the raw path: the label stays bounded. */
function routeOf(req: IncomingMessage & { route?: { path?: unknown }; baseUrl?: string }, res: ServerResponse): string {
  if (typeof req.route?.path === 'string') return `${req.baseUrl ?? ''}${req.route.path}`;
  return res.statusCode === 404 ? 'unmatched' : 'other';
}

/**
 * The first middleware: a SERVER span per request, active for everything the request does (the
 * request's own events are bound to it, so the body parser's callbacks and the handler run inside
 * it), and the request metrics when the response finishes or the client goes away.
 */
export function httpTelemetry(telemetry: ProcessTelemetry) {
  const tracer = trace.getTracer('factledger.http');
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const method = req.method ?? 'GET';
    const span = tracer.startSpan(`HTTP ${method}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': (req.url ?? '').split('?')[0] } });
    const active = trace.setSpan(context.active(), span);
    const started = process.hrtime.bigint();
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      const route = routeOf(req, res);
      const status = res.writableFinished ? res.statusCode : 499;
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      telemetry.metrics.requests.inc({ method, route, status: String(status) });
      telemetry.metrics.requestSeconds.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once('finish', end);
    res.once('close', end);
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, next);
  };
}

/**
 * The metrics one app adds at each scrape: how far behind the log each consumer of its store is
 * (the projections, the recall index, the re-review saga), and the log's head.
 */
export function appMetrics(handle: LedgerHandle, recall: RecallHandle | null): Registry {
  const registry = new Registry();
  const behind = new Gauge({ name: 'factledger_consumer_lag_events', help: 'Committed events a consumer has not applied yet', labelNames: ['consumer'], registers: [registry] });
  const age = new Gauge({
    name: 'factledger_consumer_lag_seconds',
    help: 'Age of the oldest event a consumer has not applied yet (0 when caught up)',
    labelNames: ['consumer'],
    registers: [registry],
  });
  new Gauge({
    name: 'factledger_log_head_position',
    help: "The log's last position",
    registers: [registry],
    async collect() {
      const now = Date.now();
      const lags = (await handle.runner.status()).map((p) => ({ consumer: p.name, events: p.behindEvents, ms: p.lagMs }));
      if (recall) {
        const l = await recall.indexer.lag();
        lags.push({ consumer: RECALL_INDEX, events: l.behindEvents, ms: l.lagMs });
      }
      const saga = await consumerLag(handle.database.db, handle.store, RE_REVIEW, null);
      lags.push({ consumer: RE_REVIEW, events: saga.events, ms: saga.oldest ? Math.max(0, now - saga.oldest.getTime()) : 0 });
      for (const l of lags) {
        behind.set({ consumer: l.consumer }, l.events);
        age.set({ consumer: l.consumer }, l.ms / 1000);
      }
      this.set(await handle.store.head());
    },
  });
  const replicas = handle.replicas;
  if (replicas) {
    const status = () => replicas.status();
    new Gauge({
      name: 'factledger_replica_serving',
      help: 'Whether a read replica (PostgreSQL standby) is in the rotation: 1 serving, 0 out (down, or behind past the wait)',
      labelNames: ['replica', 'state'],
      registers: [registry],
      collect() {
        this.reset();
        for (const r of status()) this.set({ replica: r.name, state: r.state }, r.state === 'serving' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'factledger_replica_reads',
      help: 'Reads a read replica has served since the process started',
      labelNames: ['replica'],
      registers: [registry],
      collect() {
        for (const r of status()) this.set({ replica: r.name }, r.served);
      },
    });
  }
  return registry;
}
