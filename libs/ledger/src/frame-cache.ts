/**
 * What restatement's look-up (fl_restating) found last for each subject and verb this process
 * wrote or asked about, so that the next prose statement with that subject and verb is planned
 * without the look-up (one round trip fewer). Like StreamCache it is only a guess: the append
 * carries the plan's frame guard (FrameGuard), the fact projection's follow-up checks it under
 * the append lock, and a changed frame refuses the append with the memories as they stand, on
 * which the ledger plans again. An LRU of lru-cache rather than a Map of our own: the bound and
 * the eviction order are the library's.
 */
import type { MemoryRow } from '@factledger/projections';
import { LRUCache } from 'lru-cache';

export class FrameCache {
  private readonly entries: LRUCache<string, MemoryRow[]>;

  constructor(maxFrames = 20_000) {
    this.entries = new LRUCache({ max: maxFrames });
  }

  private key(tenant: string, stem: string): string {
    return `${tenant}\u0000${stem}`;
  }

  get(tenant: string, stem: string): MemoryRow[] | undefined {
    return this.entries.get(this.key(tenant, stem));
  }

  put(tenant: string, stem: string, rows: MemoryRow[]): void {
    this.entries.set(this.key(tenant, stem), rows);
  }

  /** Erasure: no copy of an erased memory's words is kept. */
  forget(tenant: string, memoryIds: readonly string[]): void {
    const gone = new Set(memoryIds);
    for (const [k, rows] of this.entries.entries()) {
      if (k.startsWith(`${tenant}\u0000`) && rows.some((r) => gone.has(r.memoryId))) this.entries.delete(k);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
