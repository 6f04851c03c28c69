/** Messages over HTTP: a raw chat message through triage, extraction and the admission gates, and the record of what was decided. */
import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { parse, ingestMessageSchema } from '@factledger/ledger';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { GetMessageQuery, IngestMessageCommand } from '@factledger/nest';
import { bodyObject, TenantPipe } from './http/request-input';

@Controller('v1/tenants/:tenant')
export class MessagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** 201 even for a retried messageId: the reply is then the first record, marked `replayed`. */
  @Post('messages')
  ingest(@Param('tenant', TenantPipe) tenant: string, @Body() body: unknown) {
    return this.commands.execute(new IngestMessageCommand(tenant, parse(ingestMessageSchema, bodyObject(body))));
  }

  // The record is read from the message's own stream, not a projection, so it needs no minPosition.
  @Get('messages/:messageId')
  message(@Param('tenant', TenantPipe) tenant: string, @Param('messageId') messageId: string) {
    return this.queries.execute(new GetMessageQuery(tenant, { messageId }));
  }
}
