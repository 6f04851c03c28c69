/**
 * Prometheus metrics in the text exposition format: the process's (telemetry.ts: requests,
 * commands, appends, consumers, recall, gate decisions, Node's memory and event loop) and this
 * app's lag per consumer, read from the store at each scrape. Open like `/health`: it shows counts
 * and timings, nothing of any tenant.
 */
import { Controller, Get, Header, Inject } from '@nestjs/common';
import type { LedgerHandle } from '@factledger/ledger';
import { LEDGER_HANDLE, RECALL } from '@factledger/nest';
import type { RecallHandle } from '@factledger/recall';
import { Registry } from 'prom-client';
import { Public } from './http/access';
import { appMetrics, processTelemetry } from './telemetry';

@Public()
@Controller()
export class MetricsController {
  private readonly app: Registry;

  constructor(@Inject(LEDGER_HANDLE) handle: LedgerHandle, @Inject(RECALL) recall: RecallHandle | null) {
    this.app = appMetrics(handle, recall);
  }

  @Get('metrics')
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  metrics(): Promise<string> {
    return Registry.merge([processTelemetry().registry, this.app]).metrics();
  }
}
