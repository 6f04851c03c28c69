/**
 * How far a consumer is behind, for a store whose log is not a table the reader can count in SQL
 * (StoreCapabilities.logInDatabase false): the log read forward from the checkpoint, page by page.
 * Such a store's log is in position order, so the count stops at the first event past `upTo`.
 * Counting stops at BACKLOG_COUNT_LIMIT events: past that, "behind" reads as at least that many.
 */
import type { Backlog, EventStore, LogPosition } from './event-store.port';

export const BACKLOG_COUNT_LIMIT = 10_000;
const PAGE = 1000;

export async function backlogByReading(log: Pick<EventStore, 'readAll'>, after: LogPosition, upTo: number | null): Promise<Backlog> {
  let events = 0;
  let oldest: Date | null = null;
  let from = after;
  while (events < BACKLOG_COUNT_LIMIT) {
    const page = await log.readAll(from, PAGE);
    for (const e of page) {
      if (upTo !== null && e.globalPosition > upTo) return { events, oldest };
      events++;
      if (oldest === null || e.recordedAt < oldest) oldest = e.recordedAt;
    }
    if (page.length < PAGE) break;
    from = page[page.length - 1]!.logPosition;
  }
  return { events, oldest };
}
