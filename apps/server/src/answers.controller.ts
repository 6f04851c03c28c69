/** Answers over HTTP: record an answer with its citations, read it, list the reopened ones, review one; verify claims. */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { NeedsScope } from './http/access';
import { parse, answerQuerySchema, citingQuerySchema, recordAnswerSchema, reopenedQuerySchema, reviewAnswerSchema, reviseAnswerSchema, verifyClaimsSchema } from '@factledger/ledger';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { GetAnswerQuery, ListAnswersCitingQuery, ListReopenedAnswersQuery, ReviseAnswerQuery, RecordAnswerCommand, ReviewAnswerCommand, VerifyClaimsQuery } from '@factledger/nest';
import { bodyObject, queryObject, TenantPipe } from './http/request-input';

@Controller('v1/tenants/:tenant')
export class AnswersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('answers')
  record(@Param('tenant', TenantPipe) tenant: string, @Body() body: unknown) {
    return this.commands.execute(new RecordAnswerCommand(tenant, parse(recordAnswerSchema, bodyObject(body))));
  }

  /** The answers the re-review saga reopened and nobody has reviewed yet. */
  @Get('answers')
  reopened(@Param('tenant', TenantPipe) tenant: string, @Query() query: unknown) {
    return this.queries.execute(new ListReopenedAnswersQuery(tenant, parse(reopenedQuerySchema, queryObject(query))));
  }

  @Get('answers/:answerId')
  answer(@Param('tenant', TenantPipe) tenant: string, @Param('answerId') answerId: string, @Query() query: unknown) {
    return this.queries.execute(new GetAnswerQuery(tenant, parse(answerQuerySchema, { ...queryObject(query), answerId })));
  }

  @Post('answers/:answerId/review')
  @HttpCode(200)
  review(@Param('tenant', TenantPipe) tenant: string, @Param('answerId') answerId: string, @Body() body: unknown) {
    return this.commands.execute(new ReviewAnswerCommand(tenant, parse(reviewAnswerSchema, { ...bodyObject(body), answerId })));
  }

  @Get('memories/:memoryId/answers')
  citing(@Param('tenant', TenantPipe) tenant: string, @Param('memoryId') memoryId: string, @Query() query: unknown) {
    return this.queries.execute(new ListAnswersCitingQuery(tenant, parse(citingQuerySchema, { ...queryObject(query), memoryId })));
  }

  /** Optional, needs a language model: claims extracted, verified, the answer rewritten while they fail. */
  @Post('answers/revisions')
  @NeedsScope('read')
  @HttpCode(200)
  revise(@Param('tenant', TenantPipe) tenant: string, @Body() body: unknown) {
    return this.queries.execute(new ReviseAnswerQuery(tenant, parse(reviseAnswerSchema, bodyObject(body))));
  }

  @Post('verifications')
  @NeedsScope('read')
  @HttpCode(200)
  verify(@Param('tenant', TenantPipe) tenant: string, @Body() body: unknown) {
    return this.queries.execute(new VerifyClaimsQuery(tenant, parse(verifyClaimsSchema, bodyObject(body))));
  }
}
