/**
 * The authorization matrix, against a running server: every operation of a contract (the
 * committed clients/openapi.json in the tests, so that a new route cannot be left out), under
 * every spelling of its path an attacker would try (literal segments upper- and mixed-case, an
 * escaped unreserved character, doubled and trailing slashes, a dot segment, a structural slash
 * sent as %2F) and under HEAD and OPTIONS, sent with each key the caller names. The expected
 * answer of each cell is the domain's decideAccess on the key the request presented (as the
 * server's own key table authenticates it) and the scope the contract names for the operation:
 * never a copied table. A spelling that reaches the route answers exactly as its canonical path
 * does; one that names no route (an escaped slash is data, not structure), and OPTIONS, which no
 * route serves, meet the fallback's door, which decides with no tenant and the method's scope.
 *
 * Shared by apps/server/src/access-matrix.e2e.spec.ts (npm test, both backends) and the
 * reliability suite's isolation cell (a server process on every backend).
 */
import { type AccessDecision, type AccessScope, type ApiKey, decideAccess } from '@factledger/domain';
import { scopeOfMethod } from '../apps/server/src/http/access';
import { SCOPE_EXTENSION } from '../apps/server/src/openapi.document';

export interface Contract {
  paths: Record<string, Record<string, { security?: unknown[]; [SCOPE_EXTENSION]?: AccessScope }>>;
}

export interface ContractOperation {
  method: 'GET' | 'POST';
  template: string;
  /** The scope the contract says the operation's key needs; null for a public operation. */
  scope: AccessScope | null;
}

/** Every operation of a contract, with the scope it names (public: `security: []`); an operation that says neither is an error. */
export function contractOperations(contract: Contract): ContractOperation[] {
  return Object.entries(contract.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      if (!isPublic && !op[SCOPE_EXTENSION]) throw new Error(`${method.toUpperCase()} ${template}: neither public nor a scope in the contract`);
      return { method: method.toUpperCase() as ContractOperation['method'], template, scope: isPublic ? null : op[SCOPE_EXTENSION]! };
    }),
  );
}

/** A spelling of a path, and whether it reaches the same route as the path itself. */
export interface Spelling {
  name: string;
  path: string;
  routes: boolean;
}

/** The spellings of a concrete path whose literal segments are those `literal` says (by index among its segments). */
export function spellingsOf(path: string, literal: (index: number) => boolean): Spelling[] {
  const segments = path.split('/').slice(1);
  const mapLiterals = (f: (segment: string) => string) => `/${segments.map((s, i) => (literal(i) ? f(s) : s)).join('/')}`;
  // Between two literal segments, so that no parameter takes the escaped slash into its value.
  const pair = segments.findIndex((_, i) => i + 1 < segments.length && literal(i) && literal(i + 1));
  return [
    { name: 'canonical', path, routes: true },
    { name: 'upper-case', path: mapLiterals((s) => s.toUpperCase()), routes: true },
    { name: 'mixed-case', path: mapLiterals((s) => [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('')), routes: true },
    { name: 'escaped unreserved', path: mapLiterals((s) => `%${s.charCodeAt(0).toString(16).toUpperCase()}${s.slice(1)}`), routes: true },
    { name: 'doubled slashes', path: path.replace(/\//g, '//'), routes: true },
    { name: 'trailing slash', path: `${path}/`, routes: true },
    { name: 'dot segment', path: `/${segments[0]}/x/..${path.slice(segments[0]!.length + 1)}`, routes: true },
    ...(pair >= 0 ? [{ name: 'escaped slash', path: `/${segments.slice(0, pair + 1).join('/')}%2F${segments.slice(pair + 1).join('/')}`, routes: false }] : []),
  ];
}

/** Whether each segment of a path template is literal (not a `{parameter}`). */
export const literalSegments = (template: string) => {
  const parts = template.split('/').slice(1);
  return (i: number): boolean => !/^\{\w+\}$/.test(parts[i] ?? '');
};

/** The answer a refusal gives at the door: status and error code. */
function refusal(decision: AccessDecision): { status: number; error: string } | 'allowed' {
  if (decision.allowed) return 'allowed';
  return { unauthenticated: { status: 401, error: 'unauthenticated' }, hidden: { status: 404, error: 'not_found' }, forbidden: { status: 403, error: 'forbidden' } }[decision.reason];
}

export interface MatrixKey {
  /** What the request sends as its bearer token (undefined: no Authorization header). */
  secret: string | undefined;
  /** The key the server's table holds for it (null: none, or no key of ours), as decideAccess needs it. */
  key: ApiKey | null;
}

/** What makes and checks keys (the ledger's ApiKeys, on the store the server will use). */
export interface KeyMaker {
  create(input: { tenant: string; scopes: string; name?: string; expires?: string }): Promise<{ key: { keyId: string }; secret: string }>;
  revoke(keyId: string): Promise<unknown>;
  authenticate(secret: string): Promise<ApiKey | null>;
}

/** The key the matrix treats as the tenant's own, with every scope. */
export const FULL_KEY = 'tenant, every scope';

/**
 * The matrix's keys for `tenant`: none, malformed, unknown, revoked, a key of the tenant with every
 * scope and one per missing scope, another tenant's, an operator's; and an expired one when
 * `expiring` (a maker whose clock stands an hour back) is given.
 */
export async function matrixKeys(keys: KeyMaker, tenant: string, expiring?: KeyMaker): Promise<Record<string, MatrixKey>> {
  const secrets: Record<string, string | undefined> = { 'no key': undefined, malformed: 'not-a-key', unknown: `flk_${'a'.repeat(12)}_${'b'.repeat(43)}` };
  const make = async (name: string, owner: string, scopes: string) => {
    const made = await keys.create({ tenant: owner, scopes, name });
    secrets[name] = made.secret;
    return made.key.keyId;
  };
  await make(FULL_KEY, tenant, 'read,write,admin');
  for (const scope of ['read', 'write', 'admin']) await make(`tenant, no ${scope}`, tenant, ['read', 'write', 'admin'].filter((s) => s !== scope).join(','));
  await make('another tenant', `${tenant}-other`, 'read,write,admin');
  await make('operator', '*', 'read,write,admin');
  await keys.revoke(await make('revoked', tenant, 'read,write,admin'));
  // Made an hour back to expire a second after that: expired now.
  if (expiring) secrets.expired = (await expiring.create({ tenant, scopes: 'read,write,admin', expires: new Date(Date.now() - 3_599_000).toISOString() })).secret;
  const out: Record<string, MatrixKey> = {};
  for (const [name, secret] of Object.entries(secrets)) out[name] = { secret, key: secret ? await keys.authenticate(secret) : null };
  return out;
}

export interface MatrixOptions {
  base: string;
  contract: Contract;
  /** The tenant every path names. */
  tenant: string;
  keys: Record<string, MatrixKey>;
  /** A key of the tenant the door lets everywhere: public routes are tried with it and with none. */
  fullKey: string;
  /** The value of a path parameter other than the tenant (ids nobody holds keep the handlers' own answers stable). */
  parameter?: (name: string) => string;
  /** Requests in flight at once. */
  concurrency?: number;
}

export interface MatrixResult {
  operations: number;
  cells: number;
  failures: string[];
}

interface Reply {
  status: number;
  error: string | null;
  message: string | null;
}

const HIDDEN_MESSAGE = 'nothing here for this API key';
const FAKE_ID = '00000000-0000-4000-8000-000000000000';

/** Runs the matrix; each failure names the cell (method, path, spelling, key) and what it answered instead. */
export async function runAccessMatrix(options: MatrixOptions): Promise<MatrixResult> {
  const parameter = options.parameter ?? ((name: string) => (/id$/i.test(name) ? FAKE_ID : 'nothing-here'));
  const failures: string[] = [];
  let cells = 0;
  const send = async (method: string, path: string, secret: string | undefined, body?: unknown): Promise<Reply> => {
    const headers: Record<string, string> = secret ? { authorization: `Bearer ${secret}` } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(options.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: { error?: unknown; message?: unknown } | null = null;
    try {
      parsed = text ? (JSON.parse(text) as { error?: unknown; message?: unknown }) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, error: typeof parsed?.error === 'string' ? parsed.error : null, message: typeof parsed?.message === 'string' ? parsed.message : null };
  };
  const decide = (name: string, tenant: string | null, scope: AccessScope) => refusal(decideAccess(options.keys[name]!.key, tenant, scope, new Date()));
  const inTurn = async <T>(items: T[], work: (item: T) => Promise<void>): Promise<void> => {
    const queue = [...items];
    await Promise.all(
      Array.from({ length: options.concurrency ?? 6 }, async () => {
        for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
      }),
    );
  };

  const operations = contractOperations(options.contract);
  for (const op of operations) {
    const path = op.template.replace('{tenant}', options.tenant).replace(/\{(\w+)\}/g, (_, name: string) => parameter(name));
    const body = op.method === 'POST' ? {} : undefined;
    const names = op.scope === null ? ['no key', options.fullKey].filter((n) => n in options.keys) : Object.keys(options.keys);
    const spellings = spellingsOf(path, literalSegments(op.template));
    const methods: { method: string; scope: AccessScope; body: unknown }[] = [{ method: op.method, scope: op.scope ?? 'read', body }];
    if (op.method === 'GET') methods.push({ method: 'HEAD', scope: 'read', body: undefined });
    // What the canonical path answers each allowed key, first: each other spelling must answer the same.
    const canonical = new Map<string, number>();
    const tried: { spelling: Spelling; method: (typeof methods)[number]; name: string }[] = [];
    for (const spelling of spellings) for (const method of methods) for (const name of names) tried.push({ spelling, method, name });
    const replies = new Map<(typeof tried)[number], Reply>();
    await inTurn(tried, async (t) => {
      replies.set(t, await send(t.method.method, t.spelling.path, options.keys[t.name]!.secret, t.method.body));
    });
    for (const t of tried) if (t.spelling.name === 'canonical') canonical.set(`${t.method.method} ${t.name}`, replies.get(t)!.status);
    for (const t of tried) {
      cells++;
      const reply = replies.get(t)!;
      const { method, scope } = t.method;
      const cell = `${method} ${t.spelling.path} (${t.spelling.name}) with ${t.name}: ${reply.status} ${reply.error ?? ''}`.trim();
      if (op.scope === null) {
        if ([401, 403, 404].includes(reply.status)) failures.push(`${cell}: a public route refused`);
        continue;
      }
      const want = t.spelling.routes ? decide(t.name, options.tenant, scope) : decide(t.name, null, scopeOfMethod(method));
      if (want === 'allowed') {
        if (!t.spelling.routes) {
          if (reply.status !== 404 || (method !== 'HEAD' && reply.error !== 'not_found')) failures.push(`${cell}: expected the fallback's 404`);
        } else if ([401, 403].includes(reply.status) || reply.message === HIDDEN_MESSAGE) {
          failures.push(`${cell}: the door refused a key it allows`);
        } else if (canonical.get(`${method} ${t.name}`) !== reply.status) {
          failures.push(`${cell}: the canonical path answered ${canonical.get(`${method} ${t.name}`)}`);
        }
        continue;
      }
      // HEAD has no body: its status says it all.
      if (reply.status !== want.status || (method !== 'HEAD' && reply.error !== want.error)) failures.push(`${cell}: expected ${want.status} ${want.error}`);
      else if (want.status === 404 && method !== 'HEAD' && reply.message !== HIDDEN_MESSAGE) failures.push(`${cell}: a tenant the key does not cover must answer like any other`);
    }
    // OPTIONS is served by no route: the fallback's door, on every operation's path.
    await inTurn(Object.keys(options.keys), async (name) => {
      const reply = await send('OPTIONS', path, options.keys[name]!.secret);
      const want = decide(name, null, scopeOfMethod('OPTIONS'));
      const status = want === 'allowed' ? 404 : want.status;
      cells++;
      if (reply.status !== status) failures.push(`OPTIONS ${path} with ${name}: ${reply.status}, expected ${status}`);
    });
  }
  return { operations: operations.length, cells, failures };
}
