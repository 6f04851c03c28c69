/**
 * The door of the HTTP API: deny by default. Every route needs a usable API key with one scope,
 * decided on the route that matched (its handler's metadata), never on the path as spelled;
 * only routes marked `@Public()` (health, metrics, the contract) take none, and `/mcp` is marked
 * `@KeyedPerTool()`: the key is found here and each tool checks its scope (mcp.controller.ts).
 * A path that matches no route meets the same door (fallback.controller.ts), so no spelling of a
 * path gets past it. The rate limit runs first, counted per key (per client address for no key or
 * one that is not a key), and the key's id is the actor of every event a request appends.
 *
 * - Whether keys are required is decided once, at start-up (AccessGate): always with
 *   FACTLEDGER_AUTH=required; with `auto` (the default) when the server listens beyond loopback or
 *   any usable key exists. A server that requires keys and has none refuses to start. An open
 *   server says so once, loudly.
 * - The scope a route needs (routeAccess): `@NeedsScope` where it says, else `read` for GET and
 *   HEAD, `write` for every other method. The OpenAPI document states it per operation from the
 *   same function (`x-factledger-scope`), and the security tests derive their cases from there.
 * - The decision itself is the domain's (decideAccess): 401 without a usable key, 404 for a tenant
 *   the key does not cover (the same whatever that tenant holds), 403 for a missing scope.
 */
import { applyDecorators, type CallHandler, type CanActivate, type ExecutionContext, Inject, Injectable, type NestInterceptor, type OnApplicationBootstrap, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerOptions, InjectThrottlerStorage, SkipThrottle, ThrottlerGuard, type ThrottlerModuleOptions, type ThrottlerStorage } from '@nestjs/throttler';
import { type AccessScope, AccessDeniedError, type ApiKey } from '@factledger/domain';
import { actingAs, type LedgerConfig, type LedgerHandle, writerReply } from '@factledger/ledger';
import { LEDGER_HANDLE } from '@factledger/nest';
import { map, Observable } from 'rxjs';
import { type Logger, SERVER_LOGGER } from '../logging';

export const SERVER_CONFIG = Symbol('factledger.server-config');

const SCOPE = 'factledger:scope';
const DOOR = 'factledger:door';
type Door = 'public' | 'per-tool';

/** The scope a route needs, where its method alone would say otherwise (a POST that only reads). */
export const NeedsScope = (scope: AccessScope) => SetMetadata(SCOPE, scope);
/** A route that shows nothing of any tenant: no key, and not counted by the rate limit. */
export const Public = () => applyDecorators(SetMetadata(DOOR, 'public'), SkipThrottle());
/** A protocol that checks each of its tools' scopes itself (MCP): the door finds the key, the handler decides. */
export const KeyedPerTool = () => SetMetadata(DOOR, 'per-tool');

/** What a route asks of a request's key: nothing, a key checked by the handler, or a key with this scope. */
export type RouteAccess = { door: 'public' } | { door: 'per-tool' } | { door: 'scope'; scope: AccessScope };

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Handler = Function;

/** The scope of a request method when the route names none: reading methods read, every other writes. */
export const scopeOfMethod = (method: string): AccessScope => (['GET', 'HEAD'].includes(method.toUpperCase()) ? 'read' : 'write');

/** What a route (its handler, on its controller) needs of a request made with `method`: the one rule the guard and the contract share. */
export function routeAccess(handler: Handler, controller: Handler, method: string): RouteAccess {
  const door = (Reflect.getMetadata(DOOR, handler) ?? Reflect.getMetadata(DOOR, controller)) as Door | undefined;
  if (door) return { door };
  return { door: 'scope', scope: (Reflect.getMetadata(SCOPE, handler) as AccessScope | undefined) ?? scopeOfMethod(method) };
}

interface KeyedRequest {
  method: string;
  ip?: string;
  params?: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  apiKey?: ApiKey;
  /** The key the bearer token names (null: none, or not a key), found once per request. */
  presentedKey?: Promise<ApiKey | null>;
}

const LOOPBACK = /^(?:127(?:\.\d{1,3}){3}|::1|localhost|::ffff:127(?:\.\d{1,3}){3})$/i;

/** The bearer token of a request, or null. */
export function bearer(req: Pick<KeyedRequest, 'headers'>): string | null {
  const header = req.headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  const m = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return m ? m[1]! : null;
}

/** Whether keys are required, decided once at start-up from the configuration and the keys that exist. */
@Injectable()
export class AccessGate implements OnApplicationBootstrap {
  private required = true;

  constructor(
    @Inject(LEDGER_HANDLE) private readonly handle: LedgerHandle,
    @Inject(SERVER_CONFIG) private readonly config: LedgerConfig,
    @Inject(SERVER_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const keys = await this.handle.keys.activeCount();
    const beyondLoopback = !LOOPBACK.test(this.config.host);
    this.required = this.config.auth === 'required' || beyondLoopback || keys > 0;
    if (this.required && keys === 0) {
      const why = this.config.auth === 'required' ? 'FACTLEDGER_AUTH=required' : `HOST=${this.config.host} is not a loopback address`;
      throw new Error(`API keys are required (${why}) but none exists: create one first with \`npx factledger keys create --tenant <tenant> --scopes read,write\``);
    }
    if (!this.required) {
      this.logger.warn(
        'API keys are OFF: anyone who can reach this loopback port can read and write every tenant. Create a key (`npx factledger keys create`) or set FACTLEDGER_AUTH=required to turn them on.',
      );
    }
  }

  get keysRequired(): boolean {
    return this.required;
  }

  /** The key a request presents, looked up once however many guards ask (null: none, or no key of ours). */
  presented(req: KeyedRequest): Promise<ApiKey | null> {
    req.presentedKey ??= this.handle.keys.authenticate(bearer(req));
    return req.presentedKey;
  }
}

/** Authenticates and authorises every request that reached a route (the fallback included); the key rides on the request. */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly gate: AccessGate,
    @Inject(LEDGER_HANDLE) private readonly handle: LedgerHandle,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<KeyedRequest>();
    const access = routeAccess(context.getHandler(), context.getClass(), req.method);
    if (access.door === 'public' || !this.gate.keysRequired) return true;
    const key = await this.gate.presented(req);
    if (access.door === 'per-tool') {
      req.apiKey = key ?? undefined;
      return true;
    }
    const decision = this.handle.keys.decideFor(key, req.params?.tenant ?? null, access.scope);
    if (!decision.allowed) throw new AccessDeniedError(decision.reason, decision.message);
    req.apiKey = decision.key;
    return true;
  }
}

/**
 * The rate limit on every route but the public ones, counted per API key, and per client address
 * when keys are off or the request names no key of ours (so guessing keys is throttled too). It
 * runs before the access guard: a refused request still counts.
 */
@Injectable()
export class KeyThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly gate: AccessGate,
  ) {
    super(options, storage, reflector);
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const r = req as unknown as KeyedRequest;
    const key = this.gate.keysRequired ? await this.gate.presented(r) : null;
    return key ? `key:${key.keyId}` : `ip:${r.ip ?? 'unknown'}`;
  }

  /** One count per key (or address) over every route: the library's default keeps one per route. */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttler: string): string {
    return `${throttler}:${tracker}`;
  }
}

/** Runs the handler with the request's key id as the actor of every event it appends. */
@Injectable()
export class ActorInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const actor = context.switchToHttp().getRequest<KeyedRequest>().apiKey?.keyId;
    if (!actor) return next.handle();
    return new Observable((subscriber) => actingAs(actor, () => next.handle().subscribe(subscriber)));
  }
}

/** A key that may write but not read gets a write's reply without the words of other memories (@factledger/ledger writer-reply.ts). */
@Injectable()
export class WriterReplyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const key = context.switchToHttp().getRequest<KeyedRequest>().apiKey;
    return key && !key.scopes.includes('read') ? next.handle().pipe(map((reply: unknown) => writerReply(reply))) : next.handle();
  }
}
