/**
 * `factledger mcp [--tenant T]`: the MCP server (createMcpServer) over stdio, for a client that
 * starts it as a local process (Claude Desktop, Claude Code, Cursor, VS Code). Embedded PGlite by
 * default, as `npm start`, or DATABASE_URL. Stdout carries the protocol and nothing else: every log
 * line goes to stderr. No API key: whoever can start the process owns the store, as with the rest
 * of the command line; its events record the actor `mcp:<OS user>`.
 */
import { userInfo } from 'node:os';
import { systemClock } from '@factledger/domain';
import { createLedger, type LedgerConfig, parse, tenantSchema } from '@factledger/ledger';
import { createMcpServer, FactLedgerModule } from '@factledger/nest';
import { recallOn } from '@factledger/recall';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Command } from 'commander';

export function mcpCommand(config: () => LedgerConfig): Command {
  return new Command('mcp')
    .description('serve the Model Context Protocol over stdio (tools: remember, recall, fact, history, forget, restore, correct, record_answer, verify, explain)')
    .option('--tenant <tenant>', 'the tenant the tools act on', 'default')
    .action(async (o: { tenant: string }) => {
      // Nothing but the protocol on stdout.
      console.log = console.error;
      console.info = console.error;
      const tenant = parse(tenantSchema, o.tenant);
      const settings = config();
      const handle = await createLedger(settings);
      const recall = recallOn(handle.database, handle.runner, systemClock, settings, undefined, handle.replicas);
      if (settings.workers === 'internal') {
        recall.start((error) => console.error('factledger recall indexer:', error));
        handle.startWorkers(settings.indexIntervalMs, (error) => console.error('factledger workers:', error));
      }
      const app = await NestFactory.createApplicationContext(FactLedgerModule.forRoot({ handle, recall }), { logger: false });
      const server = createMcpServer(
        { commands: app.get(CommandBus), queries: app.get(QueryBus) },
        { tenant, actor: `mcp:${userInfo().username}`, allow: async () => undefined },
        { onUnexpected: (error) => console.error('factledger mcp:', error) },
      );
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
        process.stdin.once('end', () => resolve());
        process.once('SIGTERM', () => resolve());
        process.once('SIGINT', () => resolve());
      });
      await server.connect(transport);
      console.error(`factledger mcp: serving tenant ${tenant} over stdio`);
      await closed;
      await server.close();
      await recall.stop();
      await app.close();
      await handle.close();
    });
}
