/**
 * Runs a piece of work again and again, `intervalMs` after each run ends (never overlapping),
 * until stopped; `stop` waits for the run in progress. Errors go to `onError` and the loop goes on.
 */
export class BackgroundLoop {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> = Promise.resolve();

  constructor(private readonly work: () => Promise<unknown>) {}

  start(intervalMs: number, onError: (error: unknown) => void = () => undefined): void {
    if (this.timer) return;
    const tick = (): void => {
      this.current = this.work().catch(onError);
      void this.current.then(() => {
        if (this.timer) this.timer = setTimeout(tick, intervalMs);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }
}
