/**
 * Telemetry end to end: the real server with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a real HTTP
 * receiver on loopback (the OTLP/HTTP JSON protocol, as a collector takes it), and `/metrics`
 * scraped as Prometheus would. A write's trace runs HTTP → command → append; a recall's has its
 * stages; the metrics count requests by route pattern, appends, recall latency, admission
 * decisions and each consumer's lag.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../test/test-server';
import { processTelemetry } from './telemetry';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  events?: { name: string; attributes: { key: string; value: Record<string, unknown> }[] }[];
}

/** Every span the receiver was sent, from OTLP/HTTP JSON export requests. */
function otlpReceiver(): { server: Server; spans: OtlpSpan[]; contentTypes: string[] } {
  const spans: OtlpSpan[] = [];
  const contentTypes: string[] = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += String(c)));
    req.on('end', () => {
      contentTypes.push(String(req.headers['content-type']));
      if (req.url === '/v1/traces') {
        const doc = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const r of doc.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, spans, contentTypes };
}

const attr = (s: OtlpSpan, key: string): unknown => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v === undefined ? undefined : Object.values(v)[0];
};

/** One sample's value from the text exposition (0 when the series is absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('telemetry', () => {
  const receiver = otlpReceiver();
  let server: TestServer;

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    server = await startTestServer('pglite', { startRecall: true, config: { rateLimit: 0 } });
  });

  afterAll(async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    await server?.close();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  const post = (path: string, body: unknown) => fetch(server.base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const scrape = async (): Promise<string> => {
    const res = await fetch(`${server.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };
  /** The spans exported so far, after the exporter's batch is sent. */
  const exported = async (): Promise<OtlpSpan[]> => {
    await processTelemetry().flush();
    return receiver.spans;
  };

  it('exports a write as one trace: the HTTP request, its command, the append', async () => {
    expect(processTelemetry().exporting).toBe(true);
    const res = await post('/v1/tenants/t/memories', { subject: 'api', relation: 'port', value: '8080' });
    expect(res.status).toBe(201);
    const spans = await exported();
    expect(receiver.contentTypes).toContain('application/json');
    const http = spans.find((s) => s.name === 'POST /v1/tenants/:tenant/memories');
    expect(http).toBeDefined();
    expect(http!.kind).toBe(2); // SERVER
    expect(attr(http!, 'http.response.status_code')).toBe(201);
    const command = spans.find((s) => s.name === 'factledger.command AssertMemoryCommand' && s.parentSpanId === http!.spanId);
    expect(command?.traceId).toBe(http!.traceId);
    const append = spans.find((s) => s.name === 'factledger.append' && s.parentSpanId === command!.spanId);
    expect(append).toBeDefined();
    expect(attr(append!, 'factledger.events')).toBe(1);
    expect(attr(append!, 'factledger.tenant')).toBe('t');
    expect(Number(attr(append!, 'factledger.position'))).toBeGreaterThan(0);
    expect(attr(append!, 'factledger.inline_projection')).toBe(true);

    // An answer is projected by the runner right after its append, inside the same request's trace.
    const { memoryId } = (await res.json()) as { memoryId: string };
    const answer = await post('/v1/tenants/t/answers', { text: 'The API listens on 8080.', cites: [memoryId] });
    expect(answer.status).toBe(201);
    const after = await exported();
    const recorded = after.find((s) => s.name === 'factledger.command RecordAnswerCommand')!;
    const projected = after.filter((s) => s.name === 'factledger.consume' && s.traceId === recorded.traceId && attr(s, 'factledger.consumer') === 'answers');
    expect(projected.map((s) => attr(s, 'factledger.outcome'))).toContain('applied');
  });

  it("exports a recall with its stages, and a message's admission decisions as events", async () => {
    await post('/v1/tenants/t/memories', { text: 'The staging database runs on PostgreSQL 15.' });
    const res = await post('/v1/tenants/t/context', { query: 'Which database does staging use?', budgetTokens: 200 });
    expect(res.status).toBe(200);
    const message = await post('/v1/tenants/t/messages', { speaker: 'user', text: 'I moved to Lisbon last month and I now work at Acme as a data engineer.' });
    expect(message.status).toBeLessThan(300);
    const spans = await exported();
    const recall = spans.find((s) => s.name === 'factledger.recall');
    expect(recall).toBeDefined();
    const stages = spans.filter((s) => s.parentSpanId === recall!.spanId).map((s) => s.name);
    expect(stages).toEqual(expect.arrayContaining(['factledger.recall.embed', 'factledger.recall.pool']));
    const http = spans.find((s) => s.name === 'POST /v1/tenants/:tenant/context');
    expect(recall!.traceId).toBe(http!.traceId);
    const ingest = spans.find((s) => s.name === 'factledger.ingest');
    expect(ingest?.events?.some((e) => e.name === 'admission')).toBe(true);
  });

  it('serves Prometheus metrics: requests by route, appends, recall latency, gate decisions, lag per consumer', async () => {
    const before = await scrape();
    const appends = sample(before, 'factledger_appends_total', { outcome: 'appended' });
    const requests = sample(before, 'factledger_http_requests_total', { route: '/v1/tenants/:tenant/memories', status: '201' });
    const recalls = sample(before, 'factledger_recall_duration_seconds_count', { outcome: 'ok' });
    const decisions = sample(before, 'factledger_gate_decisions_total');
    expect(decisions).toBeGreaterThan(0); // the message of the test before
    await post('/v1/tenants/t/memories', { subject: 'cache', relation: 'port', value: '6379' });
    await post('/v1/tenants/t/memories', { subject: 'web', relation: 'port', value: '3000' });
    await post('/v1/tenants/t/context', { query: 'api port', budgetTokens: 100 });
    const rejected = await post('/v1/tenants/t/memories', { subject: 'api' });
    expect(rejected.status).toBe(400);
    const after = await scrape();
    expect(sample(after, 'factledger_appends_total', { outcome: 'appended' })).toBe(appends + 2);
    expect(sample(after, 'factledger_http_requests_total', { route: '/v1/tenants/:tenant/memories', status: '201' })).toBe(requests + 2);
    expect(sample(after, 'factledger_http_requests_total', { route: '/v1/tenants/:tenant/memories', status: '400' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'factledger_recall_duration_seconds_count', { outcome: 'ok' })).toBe(recalls + 1);
    // Lag per consumer, read at the scrape; the log's head is where the last append put it.
    for (const consumer of ['facts', 'answers', 'recall-index', 're-review']) expect(after).toMatch(new RegExp(`factledger_consumer_lag_events\\{consumer="${consumer}"\\} \\d+`));
    expect(sample(after, 'factledger_log_head_position')).toBe(await server.handle.store.head());
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // No raw path, so no tenant name, ever becomes a label.
    expect(after).not.toMatch(/route="\/v1\/tenants\/t\//);
  });
});
