/**
 * The read path: what the ledger answers of a key, a subject, a memory, a batch or a stream's
 * history, as of a moment of valid and of known time, never from a state older than the position
 * the caller names.
 */
import type { z } from 'zod';
import { factStreamId, MemoryErasedError, type MemoryStatus, normalizeTerm, UnknownBatchError, UnknownMemoryError } from '@factledger/domain';
import { type AsOf, type FactReader, FactReads, type MemoryRow } from '@factledger/projections';
import type { LedgerDeps } from './ledger-deps';
import { batchQuerySchema, factQuerySchema, historyQuerySchema, memoryQuerySchema, parse, subjectQuerySchema, tenantSchema } from './ledger.schemas';
import {
  type BatchView,
  eventText,
  type FactView,
  type HistoryView,
  isoDate,
  type KeyHistoryView,
  type MemoryHistoryView,
  type MemoryView,
  memoryView,
  type ResemblingView,
  resemblingView,
  type SubjectView,
  versionView,
} from './views';

export class LedgerReads {
  /** The fact read model as each read is served: a standby's copy or the primary's (FactReads). */
  private readonly reads: FactReads;

  constructor(protected readonly deps: LedgerDeps) {
    this.reads = new FactReads(deps, deps.replicas);
  }

  /** Runs a read where it may be served (FactReads): `reader` is a standby's or the primary's. */
  protected read<T>(tenant: string, minPosition: number | undefined, work: (reader: FactReader) => Promise<T>): Promise<T> {
    return this.reads.read(tenant, minPosition, work);
  }

  /** A batch's events (UnknownBatchError when none carried the label) and the memories they touched, as they stand. */
  async batch(tenant: string, input: z.input<typeof batchQuerySchema>): Promise<BatchView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(batchQuerySchema, input);
    return this.read(t, q.minPosition, async (reader) => {
      const labelled = await this.deps.store.readBatch(t, q.batch);
      if (labelled.length === 0) throw new UnknownBatchError(q.batch);
      const ids = [...new Set(labelled.map((e) => eventText(e, 'memoryId')).filter((id): id is string => id !== null))];
      return {
        batch: q.batch,
        events: labelled.map((e) => ({
          position: e.globalPosition,
          type: e.type,
          memoryId: eventText(e, 'memoryId'),
          recordedAt: e.recordedAt.toISOString(),
          actor: e.actor ?? null,
          reason: eventText(e, 'reason'),
        })),
        memories: (await reader.memories(t, ids)).map(memoryView),
      };
    });
  }

  async fact(tenant: string, input: z.input<typeof factQuerySchema>): Promise<FactView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(factQuerySchema, input);
    return this.read(t, q.minPosition, async (reader) => {
      const at = this.momentOf(q);
      const streamId = factStreamId({ subject: q.subject, relation: q.relation, scope: q.scope ?? {} });
      const rows = await reader.valuesAt(t, streamId, at);
      const card = rows[0]?.cardinality ?? null;
      return {
        subject: q.subject,
        relation: q.relation,
        scope: q.scope ?? {},
        cardinality: card,
        value: card === 'many' ? null : (rows[0]?.value ?? null),
        values: rows.map((r) => r.value ?? ''),
        versions: rows.map(versionView),
        validAt: at.validAt.toISOString(),
        knownAt: at.knownAt.toISOString(),
      };
    });
  }

  /** A query's moment: its valid and known times (now where it names none). */
  private momentOf(q: { validAt?: Date; knownAt?: Date }): AsOf {
    const now = this.deps.clock.now();
    return { validAt: q.validAt ?? now, knownAt: q.knownAt ?? now };
  }

  async subject(tenant: string, input: z.input<typeof subjectQuerySchema>): Promise<SubjectView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(subjectQuerySchema, input);
    return this.read(t, q.minPosition, async (reader) => {
      const at = this.momentOf(q);
      const rows = await reader.subjectAt(t, normalizeTerm(q.subject), at);
      return {
        subject: q.subject,
        facts: rows.map((r) => ({ ...versionView(r), relation: r.relation, scope: r.scope })),
        validAt: at.validAt.toISOString(),
        knownAt: at.knownAt.toISOString(),
      };
    });
  }

  async history(tenant: string, input: z.input<typeof historyQuerySchema>): Promise<KeyHistoryView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(historyQuerySchema, input);
    const streamId = factStreamId({ subject: q.subject, relation: q.relation, scope: q.scope ?? {} });
    return this.read(t, q.minPosition, async (reader) => ({ subject: q.subject, relation: q.relation, scope: q.scope ?? {}, entries: await this.historyOf(reader, t, streamId) }));
  }

  /** The bitemporal history of the stream a memory is in: its key's, or a prose memory's own. */
  async memoryHistory(tenant: string, input: z.input<typeof memoryQuerySchema>): Promise<MemoryHistoryView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(memoryQuerySchema, input);
    return this.read(t, q.minPosition, async (reader) => {
      const m = await this.locate(t, q.memoryId, reader);
      return { memoryId: q.memoryId, entries: await this.historyOf(reader, t, m.streamId) };
    });
  }

  private async historyOf(reader: FactReader, tenant: string, streamId: string): Promise<HistoryView[]> {
    // The rows from the projection; why each closed (reason, batch) and who opened and closed it
    // from the stream's own events, which opened and closed every row of it.
    const [entries, stream] = await Promise.all([reader.history(tenant, streamId), this.deps.store.readStream(tenant, streamId)]);
    const at = new Map(stream.events.map((e) => [e.globalPosition, e]));
    // Each row carries its memory's status now, as GET /memories/{id} gives it, beside how the row shows it over its period.
    const statusOf = new Map((await reader.memories(tenant, [...new Set(entries.map((h) => h.memoryId))])).map((m) => [m.memoryId, m.status]));
    return entries.map((h) => ({
      memoryId: h.memoryId,
      value: h.value,
      text: h.text,
      type: h.type,
      status: statusOf.get(h.memoryId) ?? h.status,
      shownAs: h.status,
      validFrom: h.validFrom.toISOString(),
      validTo: isoDate(h.validTo),
      knownFrom: isoDate(h.txFrom),
      knownTo: isoDate(h.txTo),
      openedBy: {
        position: h.openedBy,
        event: h.openedEventType,
        actor: at.get(h.openedBy)?.actor ?? null,
        batch: at.get(h.openedBy)?.batch ?? null,
        causation: at.get(h.openedBy)?.causationId ?? null,
      },
      closedBy:
        h.closedBy === null
          ? null
          : {
              position: h.closedBy,
              event: h.closedEventType ?? '',
              reason: eventText(at.get(h.closedBy), 'reason'),
              batch: at.get(h.closedBy)?.batch ?? null,
              by: eventText(at.get(h.closedBy), 'by'),
              actor: at.get(h.closedBy)?.actor ?? null,
              causation: at.get(h.closedBy)?.causationId ?? null,
            },
    }));
  }

  async memory(tenant: string, input: z.input<typeof memoryQuerySchema>): Promise<MemoryView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(memoryQuerySchema, input);
    return this.read(t, q.minPosition, async (reader) => {
      const m = await reader.memory(t, q.memoryId);
      if (!m) throw await this.missing(t, q.memoryId);
      return memoryView(m);
    });
  }

  /**
   * The speaker's memories in the read paths at `now` that share a word (or a word's start) with
   * `words`, or hold an email or phone number for `shapes`: what a new statement is compared with
   * for resolution (see @factledger/domain resolution.ts). Newest said first.
   */
  async resembling(tenant: string, p: { speaker: string; words: string[]; shapes?: ('email' | 'phone')[]; now: Date; limit?: number; every?: boolean }): Promise<ResemblingView[]> {
    return (await this.deps.reader.resembling(parse(tenantSchema, tenant), p)).map(resemblingView);
  }

  /** The speaker's memories in the read paths at `now` said last (one message's): what a request to forget "that" names when its message said nothing before it. */
  async saidLast(tenant: string, p: { speaker: string; now: Date }): Promise<ResemblingView[]> {
    return (await this.deps.reader.saidLast(parse(tenantSchema, tenant), p)).map(resemblingView);
  }

  /** The keys of the speaker's facts in the read paths, most recently said first: what a model extractor is offered for reuse. */
  async knownKeys(tenant: string, p: { speaker: string; limit?: number }): Promise<{ subject: string; relation: string }[]> {
    return this.deps.reader.knownKeys(parse(tenantSchema, tenant), { ...p, now: this.deps.clock.now() });
  }

  async activeMemories(tenant: string, options: { limit?: number; minPosition?: number; status?: MemoryStatus } = {}): Promise<MemoryView[]> {
    const t = parse(tenantSchema, tenant);
    return this.read(t, options.minPosition, async (reader) => {
      const rows = !options.status || options.status === 'active' ? await reader.activeMemories(t, this.deps.clock.now(), options.limit) : await reader.withStatus(t, options.status, options.limit);
      return rows.map(memoryView);
    });
  }

  /** Finds a memory's stream within the tenant; another tenant's memory is simply unknown. `reader`: a standby's, for a read it serves. */
  async locate(tenant: string, memoryId: string, reader: FactReader = this.deps.reader): Promise<MemoryRow> {
    let m = await reader.memory(tenant, memoryId);
    if (!m) {
      // Not in this read model yet: caught up on the primary, and looked for there.
      await this.deps.runner.catchUp();
      m = await this.deps.reader.memory(tenant, memoryId);
    }
    if (!m) throw await this.missing(tenant, memoryId);
    return m;
  }

  /** Why a memory is not there: erased (and when), or unknown to this tenant. */
  async missing(tenant: string, memoryId: string): Promise<Error> {
    const erased = await this.deps.reader.erased(tenant, memoryId);
    return erased ? new MemoryErasedError(memoryId, erased) : new UnknownMemoryError(memoryId);
  }
}
