/**
 * The door of the HTTP API: API keys and scopes on every `/v1` route, a rate limit per key, and the
 * key's id as the actor of every event a request appends. `/health` and `/openapi.json` stay open
 * (they show nothing of any tenant).
 *
 * - Whether keys are required is decided once, at start-up (AccessGate): always with
 *   FACTLEDGER_AUTH=required; with `auto` (the default) when the server listens beyond loopback or
 *   any usable key exists. A server that requires keys and has none refuses to start. An open
 *   server says so once, loudly.
 * - Each route needs one scope: `read` for GET and for the POSTs that only read (context,
 *   verifications, answer revision), `write` for the others, or what `@NeedsScope` says.
 * - The decision itself is the domain's (decideAccess): 401 without a usable key, 404 for a tenant
 *   the key does not cover (the same whatever that tenant holds), 403 for a missing scope.
 */
import { type CallHandler, type CanActivate, type ExecutionContext, Inject, Injectable, type NestInterceptor, type OnApplicationBootstrap, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerGuard } from '@nestjs/throttler';
import { type AccessScope, AccessDeniedError, type ApiKey } from '@factledger/domain';
import { actingAs, type LedgerConfig, type LedgerHandle } from '@factledger/ledger';
import { LEDGER_HANDLE } from '@factledger/nest';
import { Observable } from 'rxjs';
import { type Logger, SERVER_LOGGER } from '../logging';

export const SERVER_CONFIG = Symbol('factledger.server-config');

const SCOPE = 'factledger:scope';
/** The scope a route needs, where its method alone would say otherwise (a POST that only reads). */
export const NeedsScope = (scope: AccessScope) => SetMetadata(SCOPE, scope);

interface KeyedRequest {
  method: string;
  path: string;
  ip?: string;
  params?: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  apiKey?: ApiKey;
}

const LOOPBACK = /^(?:127(?:\.\d{1,3}){3}|::1|localhost|::ffff:127(?:\.\d{1,3}){3})$/i;
const guarded = (req: KeyedRequest): boolean => req.path.startsWith('/v1/');
/** MCP checks its own keys, per tool (mcp.controller.ts); it is counted by the rate limit as `/v1` is. */
const isMcp = (req: KeyedRequest): boolean => /^\/mcp\/?$/.test(req.path);

/** The bearer token of a request, or null. */
export function bearer(req: Pick<KeyedRequest, "headers">): string | null {
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
}

/** Authenticates and authorises each `/v1` request (and finds the key of each `/mcp` one, for the rate limit); the key rides on the request. */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly gate: AccessGate,
    private readonly reflector: Reflector,
    @Inject(LEDGER_HANDLE) private readonly handle: LedgerHandle,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<KeyedRequest>();
    if (!this.gate.keysRequired) return true;
    // Found once for the rate limit and the MCP controller, which decides access itself, tool by tool.
    if (isMcp(req)) req.apiKey = (await this.handle.keys.authenticate(bearer(req))) ?? undefined;
    if (!guarded(req)) return true;
    const scope = this.reflector.get<AccessScope | undefined>(SCOPE, context.getHandler()) ?? (req.method === 'GET' ? 'read' : 'write');
    const decision = await this.handle.keys.decide(bearer(req), req.params?.tenant ?? null, scope);
    if (!decision.allowed) throw new AccessDeniedError(decision.reason, decision.message);
    req.apiKey = decision.key;
    return true;
  }
}

/** The rate limit on `/v1` and `/mcp`, counted per API key (per client address when keys are off or the key is unknown); `/health` is not counted. */
@Injectable()
export class KeyThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const r = req as unknown as KeyedRequest;
    return r.apiKey ? `key:${r.apiKey.keyId}` : `ip:${r.ip ?? 'unknown'}`;
  }

  /** One count per key (or address) over every route: the library's default keeps one per route. */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttler: string): string {
    return `${throttler}:${tracker}`;
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<KeyedRequest>();
    return !guarded(req) && !isMcp(req);
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
