/** Memories over HTTP: assert, the lifecycle (quarantine, restore, retype, retract), and reads. */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { parse, assertSchema, confirmSchema, memoryQuerySchema, quarantineSchema, restoreSchema, retractSchema, retypeSchema } from '@factledger/ledger';
import {
  AssertMemoryCommand,
  GetMemoryHistoryQuery,
  GetMemoryQuery,
  ListMemoriesQuery,
  QuarantineMemoryCommand,
  RestoreMemoryCommand,
  ConfirmMemoryCommand,
  RetractMemoryCommand,
  RetypeMemoryCommand,
} from '@factledger/nest';
import { listMemoriesQuerySchema } from './api.schemas';
import { bodyObject, queryObject, TenantPipe } from './http/request-input';

@Controller('v1/tenants/:tenant')
export class MemoriesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('memories')
  assert(@Param('tenant', TenantPipe) tenant: string, @Body() body: unknown) {
    return this.commands.execute(new AssertMemoryCommand(tenant, parse(assertSchema, bodyObject(body))));
  }

  @Post('memories/:memoryId/quarantine')
  @HttpCode(200)
  quarantine(@Param('tenant', TenantPipe) tenant: string, @Param('memoryId') memoryId: string, @Body() body: unknown) {
    return this.commands.execute(new QuarantineMemoryCommand(tenant, parse(quarantineSchema, { ...bodyObject(body), memoryId })));
  }

  @Post('memories/:memoryId/restore')
  @HttpCode(200)
  restore(@Param('tenant', TenantPipe) tenant: string, @Param('memoryId') memoryId: string, @Body() body: unknown) {
    return this.commands.execute(new RestoreMemoryCommand(tenant, parse(restoreSchema, { ...bodyObject(body), memoryId })));
  }

  @Post('memories/:memoryId/confirm')
  @HttpCode(200)
  confirm(@Param('tenant', TenantPipe) tenant: string, @Param('memoryId') memoryId: string, @Body() body: unknown) {
    return this.commands.execute(new ConfirmMemoryCommand(tenant, parse(confirmSchema, { ...bodyObject(body), memoryId })));
  }

  @Post('memories/:memoryId/retype')
  @HttpCode(200)
  retype(@Param('tenant', TenantPipe) tenant: string, @Param('memoryId') memoryId: string, @Body() body: unknown) {
    return this.commands.execute(new RetypeMemoryCommand(tenant, parse(retypeSchema, { ...bodyObject(body), memoryId })));
  }

  @Post('memories/:memoryId/retract')
  @HttpCode(200)
  retractMemory(@Param('tenant', TenantPipe) tenant: string, @Param('memoryId') memoryId: string, @Body() body: unknown) {
    return this.commands.execute(new RetractMemoryCommand(tenant, parse(retractSchema, { ...bodyObject(body), memoryId })));
  }

  /** Retracts a value by its key (subject, relation, scope) rather than by memory id. */
  @Post('retractions')
  @HttpCode(200)
  retract(@Param('tenant', TenantPipe) tenant: string, @Body() body: unknown) {
    return this.commands.execute(new RetractMemoryCommand(tenant, parse(retractSchema, bodyObject(body))));
  }

  @Get('memories/:memoryId')
  memory(@Param('tenant', TenantPipe) tenant: string, @Param('memoryId') memoryId: string, @Query() query: unknown) {
    return this.queries.execute(new GetMemoryQuery(tenant, parse(memoryQuerySchema, { ...queryObject(query), memoryId })));
  }

  /** The bitemporal history of a memory's stream: its key's, or a prose memory's own (which has no key to ask by). */
  @Get('memories/:memoryId/history')
  memoryHistory(@Param('tenant', TenantPipe) tenant: string, @Param('memoryId') memoryId: string, @Query() query: unknown) {
    return this.queries.execute(new GetMemoryHistoryQuery(tenant, parse(memoryQuerySchema, { ...queryObject(query), memoryId })));
  }

  /** The active memories, newest first. */
  @Get('memories')
  list(@Param('tenant', TenantPipe) tenant: string, @Query() query: unknown) {
    return this.queries.execute(new ListMemoriesQuery(tenant, parse(listMemoriesQuerySchema, queryObject(query))));
  }
}
