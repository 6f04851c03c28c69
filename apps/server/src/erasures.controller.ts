/** Erasure over HTTP: a memory, a subject's memories or the whole tenant, for an admin key. */
import { Body, Controller, Param, Post } from '@nestjs/common';
import { parse, erasureSchema } from '@factledger/ledger';
import { CommandBus } from '@nestjs/cqrs';
import { EraseCommand } from '@factledger/nest';
import { NeedsScope } from './http/access';
import { bodyObject, TenantPipe } from './http/request-input';

@Controller('v1/tenants/:tenant')
export class ErasuresController {
  constructor(private readonly commands: CommandBus) {}

  @Post('erasures')
  @NeedsScope('admin')
  erase(@Param('tenant', TenantPipe) tenant: string, @Body() body: unknown) {
    return this.commands.execute(new EraseCommand(tenant, parse(erasureSchema, bodyObject(body))));
  }
}
