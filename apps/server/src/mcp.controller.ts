/**
 * The Model Context Protocol over streamable HTTP at `/mcp` (stateless: a server and a transport
 * per request, JSON replies). The same `Authorization: Bearer` keys as `/v1`: the key decides the
 * tenant (an operator key `*` names it with `?tenant=`), and each tool is checked against the
 * key's scopes, a missing one being a tool error. With keys off (loopback, no key) the tenant is
 * `?tenant=`, by default `default`.
 */
import { All, Controller, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AccessDeniedError, type AccessScope, type ApiKey } from '@factledger/domain';
import { type LedgerHandle, parse, tenantSchema } from '@factledger/ledger';
import { createMcpServer, LEDGER_HANDLE } from '@factledger/nest';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toHttpError } from './http/ledger-exception.filter';
import { AccessGate, KeyedPerTool } from './http/access';
import { type Logger, SERVER_LOGGER } from './logging';

@KeyedPerTool()
@Controller('mcp')
export class McpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly gate: AccessGate,
    @Inject(LEDGER_HANDLE) private readonly handle: LedgerHandle,
    @Inject(SERVER_LOGGER) private readonly logger: Logger,
  ) {}

  @Post()
  async call(@Req() req: IncomingMessage & { body?: unknown; apiKey?: ApiKey }, @Res() res: ServerResponse, @Query('tenant') asked?: string): Promise<void> {
    try {
      // Found by the access guard (access.ts), which runs before this on every /mcp request: the
      // decisions below are made on it, without looking the key up again.
      const key = req.apiKey ?? null;
      let tenant = asked ?? 'default';
      let actor: string | undefined;
      if (this.gate.keysRequired) {
        if (key && key.tenant !== '*' && asked === undefined) tenant = key.tenant;
        // Knowing the key is not enough: it must cover the tenant (else 404, as on /v1).
        const decision = this.handle.keys.decideFor(key, tenant, key?.scopes[0] ?? 'read');
        if (!decision.allowed) throw new AccessDeniedError(decision.reason, decision.message);
        actor = decision.key.keyId;
      }
      tenant = parse(tenantSchema, tenant);
      const allow = async (scope: AccessScope): Promise<void> => {
        if (!this.gate.keysRequired) return;
        const decision = this.handle.keys.decideFor(key, tenant, scope);
        if (!decision.allowed) throw new AccessDeniedError(decision.reason, decision.message);
      };
      const server = createMcpServer({ commands: this.commands, queries: this.queries }, { tenant, actor, allow }, { onUnexpected: (error) => this.logger.error({ err: error }, 'mcp tool failed') });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      const e = toHttpError(error);
      if (e.unexpected) this.logger.error({ err: error }, 'mcp request failed');
      if (res.headersSent) return void res.end();
      reply(res, e.status, e.body, e.headers);
    }
  }

  /** Stateless: no stream to resume and no session to end. */
  @All()
  other(@Res() res: ServerResponse): void {
    reply(res, 405, { error: 'method_not_allowed', message: 'this MCP endpoint is stateless: POST JSON-RPC messages to it' }, { Allow: 'POST' });
  }
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
