/** Batches over HTTP: rolling back every lifecycle change that carried a batch label. */
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RollbackBatchCommand } from '@factledger/nest';
import { bodyObject, TenantPipe } from './http/request-input';

@Controller('v1/tenants/:tenant')
export class BatchesController {
  constructor(private readonly commands: CommandBus) {}

  @Post('batches/:batch/rollback')
  @HttpCode(200)
  rollback(@Param('tenant', TenantPipe) tenant: string, @Param('batch') batch: string, @Body() body: unknown) {
    return this.commands.execute(new RollbackBatchCommand(tenant, { ...bodyObject(body), batch }));
  }
}
