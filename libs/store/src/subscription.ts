/**
 * Catch-up subscriptions for stores that have no push of their own (PostgreSQL, in memory): the
 * subscription reads the log forward from its position through the store's `readAll`, hands each
 * page to its consumer, and when it has caught up waits for the next append this process makes
 * through the store (AppendSignal), or for `pollMs`, whichever comes first: what other processes
 * commit is found by the poll. KurrentDB's adapter uses the server's own subscription instead.
 */
import type { LogPosition, LogSubscription, RecordedEvent, SubscribeOptions } from './event-store.port';

/** Tells waiting subscriptions that the store has appended something. */
export class AppendSignal {
  private next: { promise: Promise<void>; resolve: () => void } | null = null;

  /** Settles at the first append after this call. */
  appended(): Promise<void> {
    if (!this.next) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.next = { promise, resolve };
    }
    return this.next.promise;
  }

  notify(): void {
    const waiting = this.next;
    this.next = null;
    waiting?.resolve();
  }
}

export const DEFAULT_SUBSCRIPTION_PAGE = 500;

/**
 * A LogSubscription around the loop that runs it: `close` marks it closed, calls `stop` (which must
 * end whatever the loop waits on) and waits for the loop to return. The loop's failure is what
 * `ended` rejects with, and is never left unhandled.
 */
export function runSubscription(loop: (closed: () => boolean) => Promise<void>, stop: () => unknown): LogSubscription {
  let closed = false;
  const ended = loop(() => closed);
  ended.catch(() => undefined);
  return {
    ended,
    close: async () => {
      closed = true;
      await stop();
      await ended.catch(() => undefined);
    },
  };
}

/** A subscription that reads `readAll` from `after` until closed (see the module's note). */
export function subscriptionByReading(
  readAll: (after: LogPosition, limit: number) => Promise<RecordedEvent[]>,
  signal: AppendSignal,
  after: LogPosition,
  deliver: (events: RecordedEvent[]) => Promise<void>,
  options: SubscribeOptions & { pollMs: number },
): LogSubscription {
  const pageSize = options.pageSize ?? DEFAULT_SUBSCRIPTION_PAGE;
  let wakeOnClose!: () => void;
  const closing = new Promise<void>((resolve) => (wakeOnClose = resolve));
  return runSubscription(async (closed) => {
    let position = after;
    while (!closed()) {
      // Asked for before the read, so that an append made while it runs wakes the wait below.
      const appended = signal.appended();
      const events = await readAll(position, pageSize);
      if (closed()) return;
      if (events.length > 0) {
        await deliver(events);
        position = events[events.length - 1]!.logPosition;
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([appended, closing, new Promise<void>((resolve) => (timer = setTimeout(resolve, options.pollMs)))]);
      clearTimeout(timer);
    }
  }, wakeOnClose);
}
