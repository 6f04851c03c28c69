/**
 * Readiness: the store answers and every migration is applied (200), otherwise 503. Projection
 * and recall-index lag are reported, not failed on: reads with minPosition wait for it, and writes catch it up.
 * Failures are logged; the response says only which part failed.
 */
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { sql } from 'kysely';
import type { LedgerHandle } from '@factledger/ledger';
import { LEDGER_HANDLE, RECALL } from '@factledger/nest';
import type { RecallHandle } from '@factledger/recall';
import { pendingMigrations } from '@factledger/store';
import type { Health } from './api.schemas';
import { Public } from './http/access';
import { type Logger, SERVER_LOGGER } from './logging';

@Public()
@Controller()
export class HealthController {
  constructor(
    @Inject(LEDGER_HANDLE) private readonly handle: LedgerHandle,
    @Inject(SERVER_LOGGER) private readonly logger: Logger,
    @Inject(RECALL) private readonly recall: RecallHandle | null,
  ) {}

  @Get('health')
  async health(@Res({ passthrough: true }) res: { status(code: number): unknown }): Promise<Health> {
    const health = await this.check();
    res.status(health.status === 'ok' ? 200 : 503);
    return health;
  }

  private async check(): Promise<Health> {
    const { db, backend } = this.handle.database;
    const health: Health = {
      status: 'unavailable',
      store: { ok: false, backend },
      migrations: { ok: false, pending: [] },
      projections: [],
      recallIndex: null,
    };
    try {
      await sql`SELECT 1`.execute(db);
      health.store.ok = true;
      health.migrations.pending = await pendingMigrations(db);
      health.migrations.ok = health.migrations.pending.length === 0;
      if (!health.migrations.ok) return health;
      health.projections = (await this.handle.runner.status()).map((p) => ({
        name: p.name,
        behindEvents: p.behindEvents,
        lagMs: p.lagMs,
        checkpoint: p.checkpoint,
      }));
      health.recallIndex = this.recall ? await this.recall.indexer.lag() : null;
      health.status = 'ok';
    } catch (error) {
      this.logger.error({ err: error }, 'health check failed');
    }
    return health;
  }
}
