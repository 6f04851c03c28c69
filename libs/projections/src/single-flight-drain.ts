/**
 * How a log reader in one process catches up: concurrent callers share one run, and a call made
 * while a run is in progress gets one more pass afterwards, so it sees what was committed before
 * it called. `pass` processes one page and says whether the log is drained.
 */
export class SingleFlightDrain {
  private running: Promise<number> | null = null;
  private again = false;

  constructor(private readonly pass: () => Promise<{ done: boolean; count: number }>) {}

  /** Runs passes until drained; returns what the run counted (shared by callers that joined it). */
  run(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let total = 0;
      try {
        do {
          this.again = false;
          for (;;) {
            const { done, count } = await this.pass();
            total += count;
            if (done) break;
          }
        } while (this.again);
        return total;
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}
