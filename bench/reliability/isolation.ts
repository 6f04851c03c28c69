/**
 * Tenant isolation cell: two tenants, each with its own API key (FACTLEDGER_AUTH=required). Alpha
 * writes memories, a message, an answer, a batch label and a recall trace, each carrying a marker
 * string. Then beta's key tries every `/v1` route of `/openapi.json` two ways:
 * - with alpha's tenant in the path, beside a control with a tenant nobody holds;
 * - with its own tenant in the path and alpha's ids (memory, answer, message, batch, trace,
 *   subject), beside a control with ids nobody holds.
 * Promised: each foreign request answers exactly as its control does (status, error code) and in
 * the same time class (medians within 2× or 5 ms of each other), no response beta gets holds
 * alpha's marker, and alpha's memories and log are unchanged afterwards: 0 reads, 0 writes across.
 *
 * Beside it, on every backend, the authorization matrix (accessMatrixCell).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, loadConfig } from '@factledger/ledger';
import { createTestDatabase, startLocalKurrentDb } from '@factledger/testing';
import { type Contract, FULL_KEY, matrixKeys, runAccessMatrix } from '../access-matrix';
import { startServer } from './server-process';

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
}

export interface IsolationCellResult {
  cell: string;
  backend: string;
  routes: number;
  requests: number;
  /** Median milliseconds of the foreign requests and of their controls, over every route. */
  medianMs: { foreign: number; control: number };
  ms: number;
  violations: string[];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};

/** A body each write route accepts when its ids are right, so that the ids are what decides. */
function bodyFor(template: string, ids: Record<string, string>): unknown {
  if (template.endsWith('/memories')) return { subject: ids.subject, relation: 'codename', value: 'overwritten by beta' };
  if (template.endsWith('/retype')) return { type: 'note' };
  if (template.endsWith('/retractions')) return { subject: ids.subject, relation: 'codename', value: ids.marker };
  if (template.endsWith('/messages')) return { text: `The ${ids.subject} codename is now beta.`, messageId: ids.messageId };
  if (template.endsWith('/answers')) return { answerId: ids.answerId, text: 'Beta answers.', cites: [ids.memoryId] };
  if (template.endsWith('/verifications')) return { claims: [{ says: `The ${ids.subject} codename is ${ids.marker}.`, cites: ids.memoryId }] };
  if (template.endsWith('/revisions')) return { question: `What is the ${ids.subject} codename?`, answer: ids.marker };
  if (template.endsWith('/erasures')) return { memoryId: ids.memoryId };
  if (template.endsWith('/context')) return { query: `What is the ${ids.subject} codename?`, budgetTokens: 400 };
  return {};
}

export async function isolationCell(rounds: number): Promise<IsolationCellResult> {
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'fl-isolation-'));
  const violations: string[] = [];
  const secrets: Record<string, string> = {};
  try {
    const setup = await createLedger(loadConfig({ FACTLEDGER_DATA_DIR: dataDir }));
    for (const tenant of ['alpha', 'beta']) secrets[tenant] = (await setup.keys.create({ tenant, scopes: 'read,write', name: tenant })).secret;
    await setup.close();
    const server = await startServer({ FACTLEDGER_DATA_DIR: dataDir, FACTLEDGER_AUTH: 'required', FACTLEDGER_READ_WAIT_MS: '500' });
    let requests = 0;
    const call = async (key: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; ms: number }> => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(server.base + path, {
        method,
        headers: { authorization: `Bearer ${secrets[key]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      requests++;
      return { status: res.status, text, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
    };
    try {
      // Alpha's memories, message, answer, batch label and trace, each with the marker.
      const marker = `ALPHA-${randomUUID()}`;
      const subject = `alpha project ${marker.slice(6, 14)}`;
      const a = async (method: string, path: string, body?: unknown) => {
        const r = await call('alpha', method, `/v1/tenants/alpha${path}`, body);
        if (r.status >= 300) throw new Error(`alpha's setup: ${method} ${path} answered ${r.status} ${r.text}`);
        return JSON.parse(r.text) as Record<string, unknown>;
      };
      const fact = await a('POST', '/memories', { subject, relation: 'codename', value: marker, batch: 'alpha-batch' });
      // The secret is never in anything beta sends: wherever beta finds it, it was read across.
      const secret = `SECRET-${randomUUID()}`;
      await a('POST', '/memories', { text: `The ${subject} launch code is ${secret}.` });
      const message = await a('POST', '/messages', { messageId: 'alpha-message-1', speaker: 'user', text: `I renamed the ${subject} to ${marker}; its launch code is ${secret}.` });
      await a('POST', '/answers', { answerId: 'alpha-answer-1', text: `The codename is ${marker} and the launch code ${secret}.`, cites: [fact.memoryId] });
      await a('POST', `/memories/${fact.memoryId}/quarantine`, { reason: 'checking', batch: 'alpha-batch-2' });
      await a('POST', `/memories/${fact.memoryId}/restore`, { reason: 'checked' });
      const recalled = await a('POST', '/context', { query: `What is the ${subject} codename?`, budgetTokens: 400 });
      // Beta's own memories, so that its listings have something to list.
      await call('beta', 'POST', '/v1/tenants/beta/memories', { subject: 'beta project', relation: 'codename', value: 'BETA' });
      const ids: Record<string, string> = {
        tenant: 'alpha',
        memoryId: String(fact.memoryId),
        answerId: 'alpha-answer-1',
        messageId: String(message.messageId),
        batch: 'alpha-batch',
        id: String(recalled.traceId),
        subject,
        marker,
      };
      const unknown: Record<string, string> = {
        ...ids,
        tenant: 'gamma',
        memoryId: randomUUID(),
        answerId: 'no-such-answer',
        messageId: 'no-such-message',
        batch: 'no-such-batch',
        id: randomUUID(),
        subject: 'no such subject',
      };
      // What alpha holds, as alpha reads it (the audit's own timestamps left out).
      const alphaState = async (): Promise<string> =>
        JSON.stringify([(await a('GET', '/audit?limit=1000')).memories, await a('GET', '/memories?limit=1000'), await a('GET', '/answers'), await a('GET', '/messages/alpha-message-1')]);
      const alphaBefore = await alphaState();

      const doc = (await (await fetch(`${server.base}/openapi.json`)).json()) as OpenApi;
      const routes = Object.entries(doc.paths)
        .filter(([p]) => p.startsWith('/v1/'))
        .flatMap(([template, methods]) => Object.keys(methods).map((m) => ({ template, method: m.toUpperCase() })));
      const fill = (template: string, values: Record<string, string>, tenant: string): string =>
        template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(name === 'tenant' ? tenant : (values[name] ?? 'x'))) +
        (template.endsWith('/facts') || template.endsWith('/history') ? `?subject=${encodeURIComponent(values.subject!)}&relation=codename` : '');
      const foreignMs: number[] = [];
      const controlMs: number[] = [];
      const codeOf = (text: string): string | undefined => {
        try {
          return (JSON.parse(text) as { error?: string }).error;
        } catch {
          return undefined;
        }
      };
      for (const { template, method } of routes) {
        // Erasure and rollback run last: each would change what the others look at if it crossed.
        const pairs = [
          {
            what: "alpha's tenant in the path",
            foreign: fill(template, ids, 'alpha'),
            control: fill(template, unknown, 'gamma'),
            body: bodyFor(template, ids),
            controlBody: bodyFor(template, unknown),
          },
          { what: "alpha's ids under beta", foreign: fill(template, ids, 'beta'), control: fill(template, unknown, 'beta'), body: bodyFor(template, ids), controlBody: bodyFor(template, unknown) },
        ];
        for (const p of pairs) {
          const f: number[] = [];
          const c: number[] = [];
          const sent = JSON.stringify([p.foreign, p.body]);
          let refused = true;
          for (let i = 0; i < rounds; i++) {
            // In turn, foreign first then control, then the other way: neither always pays for a cold start.
            const order = i % 2 === 0 ? (['foreign', 'control'] as const) : (['control', 'foreign'] as const);
            const got: Record<string, { status: number; text: string; ms: number }> = {};
            for (const which of order) got[which] = await call('beta', method, p[which], method === 'POST' ? (which === 'foreign' ? p.body : p.controlBody) : undefined);
            const { foreign, control } = got as { foreign: { status: number; text: string; ms: number }; control: { status: number; text: string; ms: number } };
            f.push(foreign.ms);
            c.push(control.ms);
            if (foreign.text.includes(secret) || (!sent.includes(marker) && foreign.text.includes(marker)))
              violations.push(`${method} ${template} (${p.what}): beta's answer holds alpha's data: ${foreign.text.slice(0, 200)}`);
            if (i === 0 && (foreign.status !== control.status || codeOf(foreign.text) !== codeOf(control.text))) {
              violations.push(`${method} ${template} (${p.what}): ${foreign.status} ${codeOf(foreign.text) ?? ''}, where nobody's ids get ${control.status} ${codeOf(control.text) ?? ''}`);
            }
            refused &&= control.status === 404;
          }
          // Time is an oracle only where the answer is "not there": compared over enough rounds, for those.
          const [fm, cm] = [median(f), median(c)];
          if (refused && rounds >= 5 && Math.abs(fm - cm) > 5 && (fm > 2 * cm || cm > 2 * fm))
            violations.push(`${method} ${template} (${p.what}): median ${fm.toFixed(1)} ms against ${cm.toFixed(1)} ms for nobody's ids`);
          foreignMs.push(...f);
          controlMs.push(...c);
        }
      }
      // Nothing of alpha's changed.
      if ((await alphaState()) !== alphaBefore) violations.push("alpha's memories, answers or message changed while beta tried its routes");
      return {
        cell: 'tenant isolation over every /v1 route',
        backend: 'pglite',
        routes: routes.length,
        requests,
        medianMs: { foreign: Math.round(median(foreignMs) * 10) / 10, control: Math.round(median(controlMs) * 10) / 10 },
        ms: Date.now() - started,
        violations,
      };
    } finally {
      await server.kill('SIGTERM');
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface AccessMatrixCellResult {
  cell: string;
  backend: string;
  operations: number;
  cells: number;
  ms: number;
  violations: string[];
}

/**
 * The authorization matrix (bench/access-matrix.ts) against the server as `npm start` runs it,
 * with keys required, on one backend: every operation of its /openapi.json under every spelling
 * and every kind of key, each cell as the domain's decideAccess decides.
 */
export async function accessMatrixCell(backend: 'pglite' | 'postgres' | 'kurrentdb'): Promise<AccessMatrixCellResult> {
  const started = Date.now();
  const database = backend === 'pglite' ? null : await createTestDatabase('postgres');
  const dataDir = backend === 'pglite' ? mkdtempSync(join(tmpdir(), 'fl-matrix-')) : null;
  const kurrent = backend === 'kurrentdb' ? await startLocalKurrentDb() : null;
  const env: Record<string, string> = database ? { DATABASE_URL: database.url! } : { FACTLEDGER_DATA_DIR: dataDir! };
  if (kurrent) Object.assign(env, { FACTLEDGER_EVENT_STORE: 'kurrentdb', KURRENTDB_URL: kurrent.url });
  try {
    const setup = await createLedger(loadConfig(env));
    const keys = await matrixKeys(setup.keys, 'acme').finally(() => setup.close());
    const server = await startServer({ ...env, FACTLEDGER_AUTH: 'required' });
    try {
      const contract = (await (await fetch(`${server.base}/openapi.json`)).json()) as Contract;
      const result = await runAccessMatrix({ base: server.base, contract, tenant: 'acme', keys, fullKey: FULL_KEY });
      return { cell: 'authorization matrix: every route, spelling and key', backend, operations: result.operations, cells: result.cells, ms: Date.now() - started, violations: result.failures };
    } finally {
      await server.kill('SIGTERM');
    }
  } finally {
    await kurrent?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
