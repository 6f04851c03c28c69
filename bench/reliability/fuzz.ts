/**
 * Fuzz cell: requests generated from the server's own contract (`/openapi.json`) with fast-check.
 * Each operation's parameters and body schema give a well-formed request; then one of the ways a
 * request goes wrong is applied: a required field dropped, a field that is not in the schema, a
 * value of the wrong type, a huge, empty or odd-Unicode string, an impossible date or position,
 * deep nesting, a body that is not JSON, the wrong content type, no body at all. The path is
 * spelled as an attacker would (bench/access-matrix.ts spellingsOf: literal segments in upper or
 * mixed case, an escaped unreserved character or slash, doubled or trailing slashes, a dot
 * segment), the method now and then HEAD or OPTIONS, and the server requires API keys: most
 * requests carry the tenant's key, one in six none and one in twelve a key that is not one.
 *
 * Promised, and checked request by request:
 * - no 500, no 5xx the API does not declare (501: no language model configured; 503: the read
 *   models lag), no request without an answer within 15 s;
 * - a request without a usable key is a 401 on every route but the public ones, however its
 *   path is spelled, unless it cannot be read at all (a body that is not JSON or not UTF-8, an
 *   escape that spells no UTF-8: 400 `malformed request` before any route is matched);
 * - after every 4xx the log's head is where it was (`factledger_log_head_position` on /metrics);
 * - the server's heap after the run is back near where it stood after a warm-up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createLedger, loadConfig } from '@factledger/ledger';
import { literalSegments, spellingsOf } from '../access-matrix';
import { heapGrowth, metricValues } from './metrics-scrape';
import { startServer } from './server-process';

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
};
interface Parameter {
  in: 'path' | 'query';
  name: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  /** `[]` on a public operation (no key). */
  security?: unknown[];
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

interface FuzzRequest {
  method: string;
  path: string;
  operation: string;
  contentType: string | null;
  body: string | null;
  mutation: string;
  /** The tenant's key, none, or a token that is no key. */
  key: 'tenant' | 'none' | 'wrong';
  /** The operation takes no key. */
  open: boolean;
}

export interface FuzzCellResult {
  cell: string;
  backend: string;
  requests: number;
  operations: number;
  statuses: Record<string, number>;
  /** 5xx the API declares for a reason (501 not configured, 503 lag), counted apart from the violations. */
  declared5xx: number;
  heapMB: { warm: number; end: number };
  ms: number;
  violations: string[];
}

const TENANT = 'fuzz';

/** Strings a parser or a database may trip on. */
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202eevil',
  '👩‍👩‍👧‍👦'.repeat(50),
  'e\u0301\u0301\u0301',
  '%00',
  '../../etc/passwd',
  "'; DROP TABLE fl_events; --",
  '{"$where":"1"}',
  'null',
  '2026-02-30',
  '2026-13-45T25:61:61Z',
  'yesterday',
  '-1',
  '1e400',
  'NaN',
  '\t\n\r',
  'x'.repeat(100_000),
];

const ODD_VALUES: unknown[] = [null, true, -1, 0, 1e308, -1e308, 2 ** 53 + 1, 1.5, [], {}, [[[]]], { a: { b: { c: {} } } }, ...ODD_STRINGS];

function deepNesting(levels: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { v };
  return v;
}

class Generator {
  constructor(private readonly doc: OpenApi) {}

  private resolve(s: Schema): Schema {
    if (!s.$ref) return s;
    return this.resolve(this.doc.components.schemas[s.$ref.split('/').pop()!]!);
  }

  /** A value the schema allows (within bounds a generator can keep small). */
  valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    if (s.enum) return fc.constantFrom(...s.enum);
    const alternatives = s.anyOf ?? s.oneOf;
    if (alternatives) return fc.oneof(...alternatives.map((a) => this.valid(a, depth + 1)));
    if (s.allOf)
      return this.valid(
        { type: 'object', properties: Object.assign({}, ...s.allOf.map((a) => this.resolve(a).properties ?? {})), required: s.allOf.flatMap((a) => this.resolve(a).required ?? []) },
        depth,
      );
    switch (s.type) {
      case 'string':
        if (s.format === 'date-time' || s.format === 'date')
          return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
        return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.max(s.minLength ?? 0, Math.min(s.maxLength ?? 24, 24)) });
      case 'integer':
        return fc.integer({ min: Math.max(s.minimum ?? -1000, -1e9), max: Math.min(s.maximum ?? 1000, 1e9) });
      case 'number':
        return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return depth > 3 ? fc.constant([]) : fc.array(this.valid(s.items ?? {}, depth + 1), { maxLength: 3 });
      case 'object': {
        if (!s.properties) return fc.constant({});
        const keys = Object.keys(s.properties);
        const required = (s.required ?? []).filter((k) => keys.includes(k));
        return fc.record(Object.fromEntries(keys.map((k) => [k, this.valid(s.properties![k]!, depth + 1)])), { requiredKeys: required });
      }
      default:
        return fc.constantFrom<unknown>('x', 1, true, null);
    }
  }

  /** The body as JSON with one thing wrong (or nothing, now and then), and the name of what. */
  body(schema: Schema): fc.Arbitrary<{ value: unknown; mutation: string }> {
    const s = this.resolve(schema);
    const keys = Object.keys(s.properties ?? {});
    const valid = this.valid(s);
    const odd = fc.constantFrom(...ODD_VALUES);
    const mutations: fc.Arbitrary<{ value: unknown; mutation: string }>[] = [
      valid.map((value) => ({ value, mutation: 'as the schema allows' })),
      fc.tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), odd).map(([v, k, x]) => ({ value: { ...(v as object), [`x-${k}`]: x }, mutation: 'a field not in the schema' })),
      odd.map((value) => ({ value, mutation: 'not an object' })),
      fc.constant({ value: deepNesting(2000), mutation: 'nested 2,000 deep' }),
    ];
    if (keys.length) {
      mutations.push(
        fc.tuple(valid, fc.constantFrom(...keys), odd).map(([v, k, x]) => ({ value: { ...(v as object), [k]: x }, mutation: `${k}: an odd value` })),
        fc.tuple(valid, fc.constantFrom(...keys)).map(([v, k]) => ({ value: { ...(v as object), [k]: deepNesting(60) }, mutation: `${k}: nested 60 deep` })),
      );
    }
    if (s.required?.length) {
      mutations.push(
        fc.tuple(valid, fc.constantFrom(...s.required)).map(([v, k]) => {
          const { [k]: _dropped, ...rest } = v as Record<string, unknown>;
          return { value: rest, mutation: `${k}: missing` };
        }),
      );
    }
    return fc.oneof(...mutations);
  }

  /** A path or query parameter's value: a plausible one, or an odd one. */
  parameter(p: Parameter): fc.Arbitrary<string | undefined> {
    const plausible = p.name === 'tenant' ? fc.constant(TENANT) : this.valid(p.schema ?? { type: 'string' }).map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)));
    const odd = fc.constantFrom(...ODD_STRINGS.filter((x) => x.length < 1000), 'x'.repeat(5000));
    if (p.in === 'path') return fc.oneof({ arbitrary: plausible, weight: 3 }, { arbitrary: odd, weight: 1 }, { arbitrary: fc.uuid(), weight: 1 });
    return fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: plausible, weight: 2 }, { arbitrary: odd, weight: 1 });
  }

  requests(): fc.Arbitrary<FuzzRequest> {
    const operations: fc.Arbitrary<FuzzRequest>[] = [];
    for (const [template, methods] of Object.entries(this.doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const params = op.parameters ?? [];
        const schema = op.requestBody?.content['application/json']?.schema;
        const values = fc.tuple(...params.map((p) => this.parameter(p)));
        const body: fc.Arbitrary<{ contentType: string | null; body: string | null; mutation: string }> = schema
          ? fc.oneof(
              { arbitrary: this.body(schema).map(({ value, mutation }) => ({ contentType: 'application/json', body: JSON.stringify(value) ?? 'null', mutation })), weight: 8 },
              { arbitrary: fc.constantFrom('{', '{"a":', '[1,2', "{'single': 1}", '\u0000', '').map((b) => ({ contentType: 'application/json', body: b, mutation: 'not JSON' })), weight: 1 },
              {
                arbitrary: fc
                  .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml')
                  .map((t) => ({ contentType: t, body: 'subject=a&relation=b', mutation: `sent as ${t}` })),
                weight: 1,
              },
              { arbitrary: fc.constant({ contentType: null, body: null, mutation: 'no body' }), weight: 1 },
            )
          : fc.constant({ contentType: null, body: null, mutation: 'no body (none taken)' });
        const spelling = fc.nat({ max: 9 });
        const verb = fc.oneof({ arbitrary: fc.constant(method.toUpperCase()), weight: 10 }, { arbitrary: fc.constantFrom(method === 'get' ? 'HEAD' : 'OPTIONS', 'OPTIONS'), weight: 1 });
        const key = fc.oneof({ arbitrary: fc.constant('tenant' as const), weight: 9 }, { arbitrary: fc.constant('none' as const), weight: 2 }, { arbitrary: fc.constant('wrong' as const), weight: 1 });
        operations.push(
          fc.tuple(values, body, spelling, verb, key).map(([vals, b, s, m, k]) => {
            let path = template;
            const query = new URLSearchParams();
            params.forEach((p, i) => {
              const v = vals[i];
              if (p.in === 'path') path = path.replace(`{${p.name}}`, pathSegment(v ?? ''));
              else if (v !== undefined) query.set(p.name, v);
            });
            // Most requests as the contract spells them; the rest in one of the spellings an attacker tries.
            const spellings = spellingsOf(path, literalSegments(template));
            const spelled = s < spellings.length ? spellings[s]! : spellings[0]!;
            const q = query.toString();
            const mutation = spelled.name === 'canonical' ? b.mutation : `${b.mutation}; path ${spelled.name}`;
            return {
              method: m,
              path: q ? `${spelled.path}?${q}` : spelled.path,
              operation: `${method.toUpperCase()} ${template}`,
              ...b,
              mutation,
              key: k,
              open: Array.isArray(op.security) && op.security.length === 0,
            };
          }),
        );
      }
    }
    return fc.oneof(...operations);
  }
}

/** A path segment as a client would send it; a lone surrogate (no UTF-8 for it) as the bytes of its code unit, which no server can decode. */
function pathSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value].map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
  }
}

const DECLARED_5XX = new Set(['llm_not_configured', 'projection_lag', 'not_supported_by_store']);

const metric = (text: string, name: string): number => metricValues(text, name)[''] ?? Number.NaN;

export async function fuzzCell(count: number, seed = 11): Promise<FuzzCellResult> {
  const started = Date.now();
  // Keys required, so that every spelling of every path meets the door: the tenant's key made first, in the server's own folder.
  const dataDir = mkdtempSync(join(tmpdir(), 'fl-fuzz-'));
  const setup = await createLedger(loadConfig({ FACTLEDGER_DATA_DIR: dataDir }));
  const secret = (await setup.keys.create({ tenant: TENANT, scopes: 'read,write,admin', name: 'fuzz' })).secret;
  await setup.close();
  const server = await startServer({ FACTLEDGER_DATA_DIR: dataDir, FACTLEDGER_AUTH: 'required', FACTLEDGER_READ_WAIT_MS: '200' });
  const violations: string[] = [];
  const statuses: Record<string, number> = {};
  let declared5xx = 0;
  try {
    const doc = (await (await fetch(`${server.base}/openapi.json`)).json()) as OpenApi;
    const generator = new Generator(doc);
    const requests = fc.sample(generator.requests(), { numRuns: count, seed });
    const scrape = async (): Promise<string> => (await fetch(`${server.base}/metrics`)).text();
    let head = metric(await scrape(), 'factledger_log_head_position');
    const heap: number[] = [];
    for (const [i, r] of requests.entries()) {
      if (i % 50 === 0) heap.push(metric(await scrape(), 'nodejs_heap_size_used_bytes'));
      const what = `${r.method} ${r.path.slice(0, 120)} (${r.mutation})`;
      let status: number;
      let text: string;
      try {
        const token = r.key === 'tenant' ? secret : r.key === 'wrong' ? `flk_${'z'.repeat(12)}_${'y'.repeat(43)}` : null;
        const res = await fetch(server.base + r.path, {
          method: r.method,
          headers: { ...(r.contentType ? { 'content-type': r.contentType } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: r.method === 'HEAD' || r.method === 'OPTIONS' ? undefined : (r.body ?? undefined),
          signal: AbortSignal.timeout(15_000),
        });
        status = res.status;
        text = await res.text();
      } catch (error) {
        violations.push(`${what}: no answer (${error instanceof Error ? error.message : String(error)})`);
        if (server.child.exitCode !== null || server.child.signalCode !== null) {
          violations.push(`the server died:\n${server.output().slice(-2000)}`);
          break;
        }
        continue;
      }
      statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
      // No usable key: the door answers first, however the path is spelled; only a request that cannot be read is refused before it.
      const unreadable = status === 400 && /"message":"(?:malformed request|invalid input: [^"]*not UTF-8)/.test(text);
      if (r.key !== 'tenant' && !r.open && status !== 401 && !unreadable) violations.push(`${what} without a usable key: ${status} ${text.slice(0, 200)}`);
      if (status >= 500) {
        const code = (() => {
          try {
            return (JSON.parse(text) as { error?: string }).error;
          } catch {
            return undefined;
          }
        })();
        if (code && DECLARED_5XX.has(code)) declared5xx++;
        else violations.push(`${what}: ${status} ${text.slice(0, 200)}`);
      }
      const now = metric(await scrape(), 'factledger_log_head_position');
      if (status >= 400 && status < 500 && now !== head) violations.push(`${what}: ${status}, yet the log moved from ${head} to ${now}`);
      head = now;
      if ((i + 1) % 1000 === 0) process.stderr.write(`  fuzz: ${i + 1}/${count}\n`);
    }
    // The heap, sampled every 50 requests, against its own warm-up (metrics-scrape.ts, heapGrowth).
    await new Promise((r) => setTimeout(r, 3000));
    heap.push(metric(await scrape(), 'nodejs_heap_size_used_bytes'));
    const growth = heapGrowth(heap);
    // A trend needs samples enough (2,000 requests and more); the smoke run only reports.
    if (growth.grew && heap.length >= 40) violations.push(`the heap grew from ${growth.warmMB} MB after the warm-up to ${growth.endMB} MB`);
    return {
      cell: 'fuzz from /openapi.json',
      backend: 'pglite',
      requests: requests.length,
      operations: new Set(requests.map((r) => r.operation)).size,
      statuses,
      declared5xx,
      heapMB: { warm: growth.warmMB, end: growth.endMB },
      ms: Date.now() - started,
      violations,
    };
  } finally {
    await server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
