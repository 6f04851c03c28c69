/** Bitemporal reads over HTTP: a key as of (validAt, knownAt), a subject, a key's full history, and the audit (what the ledger believed, what changed). */
import { Controller, Get, Param, Query } from '@nestjs/common';
import { parse, auditDiffQuerySchema, auditQuerySchema, factQuerySchema, historyQuerySchema, subjectQuerySchema } from '@factledger/ledger';
import { QueryBus } from '@nestjs/cqrs';
import { GetAuditDiffQuery, GetAuditQuery, GetFactQuery, GetHistoryQuery, GetSubjectQuery } from '@factledger/nest';
import { queryObject, TenantPipe } from './http/request-input';

const JSON_FIELDS = ['scope'] as const;

@Controller('v1/tenants/:tenant')
export class FactsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('facts')
  fact(@Param('tenant', TenantPipe) tenant: string, @Query() query: unknown) {
    return this.queries.execute(new GetFactQuery(tenant, parse(factQuerySchema, queryObject(query, JSON_FIELDS))));
  }

  @Get('subjects/:subject')
  subject(@Param('tenant', TenantPipe) tenant: string, @Param('subject') subject: string, @Query() query: unknown) {
    return this.queries.execute(new GetSubjectQuery(tenant, parse(subjectQuerySchema, { ...queryObject(query), subject })));
  }

  @Get('history')
  history(@Param('tenant', TenantPipe) tenant: string, @Query() query: unknown) {
    return this.queries.execute(new GetHistoryQuery(tenant, parse(historyQuerySchema, queryObject(query, JSON_FIELDS))));
  }

  @Get('audit')
  audit(@Param('tenant', TenantPipe) tenant: string, @Query() query: unknown) {
    return this.queries.execute(new GetAuditQuery(tenant, parse(auditQuerySchema, queryObject(query))));
  }

  @Get('audit/diff')
  auditDiff(@Param('tenant', TenantPipe) tenant: string, @Query() query: unknown) {
    return this.queries.execute(new GetAuditDiffQuery(tenant, parse(auditDiffQuerySchema, queryObject(query))));
  }
}
