/** Batches over HTTP: what a batch label covers, and rolling back every lifecycle change that carried it. */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { parse, batchQuerySchema, rollbackSchema } from '@factledger/ledger';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { GetBatchQuery, RollbackBatchCommand } from '@factledger/nest';
import { NeedsScope } from './http/access';
import { bodyObject, queryObject, TenantPipe } from './http/request-input';

@Controller('v1/tenants/:tenant')
export class BatchesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('batches/:batch')
  batch(@Param('tenant', TenantPipe) tenant: string, @Param('batch') batch: string, @Query() query: unknown) {
    return this.queries.execute(new GetBatchQuery(tenant, parse(batchQuerySchema, { ...queryObject(query), batch })));
  }

  /** A bulk undo across every memory the label touched: `admin` scope, as erasure. */
  @Post('batches/:batch/rollback')
  @NeedsScope('admin')
  @HttpCode(200)
  rollback(@Param('tenant', TenantPipe) tenant: string, @Param('batch') batch: string, @Body() body: unknown) {
    return this.commands.execute(new RollbackBatchCommand(tenant, parse(rollbackSchema, { ...bodyObject(body), batch })));
  }
}
