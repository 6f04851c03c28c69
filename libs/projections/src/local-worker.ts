/**
 * Runs readers of the log inside this process, with no lease: what a server or an MCP process
 * with FACTLEDGER_WORKERS=internal (the default) runs, the same jobs a `factledger worker` holds.
 *
 * A job that can `follow` (the log's consumers) is followed from the moment `start` is called:
 * one subscription to the log from the consumer's checkpoint (EventStore.subscribe), so this
 * process's own writes wake it at once, other processes' are found by the store's poll (pushed by
 * KurrentDB), and a burst of writes is taken as one page. The other jobs (the sealer, trace
 * retention) run one after the other every `intervalMs`. A reader that waits for its own write
 * (ProjectionRunner.awaitPosition) still catches up by itself meanwhile; the consumer's lock keeps
 * the two from applying the same page (checkpointed-consumer.ts).
 */
import { BackgroundLoop } from './background-loop';
import type { Following } from './checkpointed-consumer';
import type { WorkerJob } from './leased-worker';

export class LocalWorker {
  private following: Following[] = [];
  private running = false;
  private readonly passes: BackgroundLoop;
  private onError: (error: unknown) => void = () => undefined;

  constructor(private readonly jobs: readonly WorkerJob[]) {
    const others = jobs.filter((job) => !job.follow);
    this.passes = new BackgroundLoop(async () => {
      for (const job of others) await job.run().catch((error: unknown) => this.onError(error));
    });
  }

  /** Whether `start` was called and `stop` not since. */
  get isRunning(): boolean {
    return this.running;
  }

  /** Starts following and the passes; a second call while running changes nothing. */
  start(intervalMs: number, onError: (error: unknown) => void = () => undefined): void {
    if (this.running) return;
    this.running = true;
    this.onError = onError;
    this.following = this.jobs.filter((job) => job.follow).map((job) => job.follow!(onError));
    this.passes.start(intervalMs, onError);
  }

  /** Ends every subscription (a page in progress commits or rolls back first) and the passes. */
  async stop(): Promise<void> {
    const following = this.following;
    this.following = [];
    this.running = false;
    await Promise.all(following.map((f) => f.stop().catch((error: unknown) => this.onError(error))));
    await this.passes.stop();
  }
}
