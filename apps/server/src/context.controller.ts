/** Recall over HTTP: assemble the context for a prompt, and read back how it was assembled. */
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { NeedsScope } from './http/access';
import { parse } from '@factledger/ledger';
import { recallQuerySchema } from '@factledger/recall';
import { QueryBus } from '@nestjs/cqrs';
import { AssembleContextQuery, GetTraceQuery } from '@factledger/nest';
import { bodyObject, TenantPipe } from './http/request-input';

@Controller('v1/tenants/:tenant')
export class ContextController {
  constructor(private readonly queries: QueryBus) {}

  @Post('context')
  @NeedsScope('read')
  @HttpCode(200)
  assemble(@Param('tenant', TenantPipe) tenant: string, @Body() body: unknown) {
    return this.queries.execute(new AssembleContextQuery(tenant, parse(recallQuerySchema, bodyObject(body))));
  }

  @Get('traces/:id')
  trace(@Param('tenant', TenantPipe) tenant: string, @Param('id') id: string) {
    return this.queries.execute(new GetTraceQuery(tenant, { id }));
  }
}
