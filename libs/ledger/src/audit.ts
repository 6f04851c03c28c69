/**
 * The audit (issue "web inspector", R-audit): what the ledger believed at a moment, and what
 * changed in it between two moments, each change with the events that made it (their batch and
 * the actor: the API key that wrote them). Reads only: the bitemporal read model for the beliefs,
 * the event-store port for the events.
 */
import type { z } from 'zod';
import { beliefChanges, type Clock, normalizeTerm } from '@factledger/domain';
import { type FactReader, FactReads, type HistoryRow, type ProjectionRunner, type ReplicaRouting } from '@factledger/projections';
import type { EventStore, RecordedEvent } from '@factledger/store';
import { parse } from './ledger.schemas';
import { type BeliefDiffView, type BelievedView, type BeliefView, type ChangeEventView, eventText, versionView } from './views';
import { auditDiffQuerySchema, auditQuerySchema, tenantSchema } from './ledger.schemas';

const DEFAULT_LIMIT = 1_000;
/** Streams read at once for a diff's events. */
const READ_AT_ONCE = 16;

const believedView = (h: HistoryRow): BelievedView => ({ ...versionView(h), kind: h.kind, subject: h.subject, relation: h.relation, scope: h.scope });

export class Audit {
  /** The fact read model as each read is served: a standby's copy or the primary's (FactReads). */
  private readonly reads: FactReads;

  constructor(private readonly deps: { reader: FactReader; store: EventStore; runner: ProjectionRunner; clock: Clock; replicas?: ReplicaRouting }) {
    this.reads = new FactReads(deps, deps.replicas);
  }

  /** The tenant's memories (or one subject's) as the ledger knew them at `knownAt`, true at `validAt` (default: knownAt). */
  async believed(tenant: string, input: z.input<typeof auditQuerySchema>): Promise<BeliefView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(auditQuerySchema, input);
    return this.reads.read(t, q.minPosition, async (reader) => {
      const knownAt = q.knownAt ?? this.deps.clock.now();
      const validAt = q.validAt ?? knownAt;
      const limit = q.limit ?? DEFAULT_LIMIT;
      const rows = await reader.believedAt(t, { knownAt, validAt }, { subjectNorm: q.subject ? normalizeTerm(q.subject) : null, limit: limit + 1 });
      return { knownAt: knownAt.toISOString(), validAt: validAt.toISOString(), subject: q.subject ?? null, memories: rows.slice(0, limit).map(believedView), truncated: rows.length > limit };
    });
  }

  /**
   * Every key (or prose memory) whose believed versions differ between transaction times `from`
   * and `to`, both sides read at `validAt`, or each at its own moment when none is given; with
   * the events recorded on it in between.
   */
  async changes(tenant: string, input: z.input<typeof auditDiffQuerySchema>): Promise<BeliefDiffView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(auditDiffQuerySchema, input);
    return this.reads.read(t, q.minPosition, (reader) => this.changesOn(reader, t, q));
  }

  private async changesOn(reader: FactReader, t: string, q: z.output<typeof auditDiffQuerySchema>): Promise<BeliefDiffView> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const subjectNorm = q.subject ? normalizeTerm(q.subject) : null;
    // Every row of each side: a change is found by comparing them whole.
    const all = { subjectNorm, limit: null };
    const [before, after] = await Promise.all([reader.believedAt(t, { knownAt: q.from, validAt: q.validAt ?? q.from }, all), reader.believedAt(t, { knownAt: q.to, validAt: q.validAt ?? q.to }, all)]);
    const changed = beliefChanges(before, after);
    const shown = changed.slice(0, limit);
    const events = new Map<string, ChangeEventView[]>();
    for (let i = 0; i < shown.length; i += READ_AT_ONCE) {
      const streams = shown.slice(i, i + READ_AT_ONCE).map((c) => c.streamId);
      const read = await Promise.all(streams.map((s) => this.deps.store.readStream(t, s)));
      streams.forEach((s, j) => events.set(s, read[j]!.events.filter((e) => e.recordedAt > q.from && e.recordedAt <= q.to).map(changeEventView)));
    }
    return {
      from: q.from.toISOString(),
      to: q.to.toISOString(),
      validAt: q.validAt?.toISOString() ?? null,
      subject: q.subject ?? null,
      changes: shown.map((c) => {
        const key = (c.after[0] ?? c.before[0])!;
        return {
          kind: key.kind,
          subject: key.subject,
          relation: key.relation,
          scope: key.scope,
          before: c.before.map(believedView),
          after: c.after.map(believedView),
          events: events.get(c.streamId) ?? [],
        };
      }),
      truncated: changed.length > limit,
    };
  }
}

function changeEventView(e: RecordedEvent): ChangeEventView {
  return { position: e.globalPosition, type: e.type, memoryId: eventText(e, 'memoryId'), recordedAt: e.recordedAt.toISOString(), batch: e.batch, actor: e.actor ?? null };
}
