/**
 * Erasure (issue 16): takes a memory's words out of everything the product wrote, keeps the
 * log's shape, and leaves a chain that still verifies. What each event keeps is the domain's
 * (@factledger/domain erasure.ts); the log's rewrite is the store's (EventStore.redact,
 * migrations/019); the read models follow from the MemoryErased events, like any other change.
 *
 * One erasure, in order:
 * 1. the streams it takes (a memory's, a subject's, or the tenant's) and their memories;
 * 2. the other events that hold their words: message records and answers that cited them;
 * 3. one transaction: those events rewritten, an ErasureRecorded with the new content hashes, and
 *    a MemoryErased per memory in its stream (a stale copy elsewhere conflicts on its version);
 * 4. then the embedding cache forgets the texts, the read models apply the MemoryErased events
 *    (fl_forget_memories), and the re-review saga reopens the answers that cited them.
 *
 * `eraseMemories` takes several memories in one such erasure, with its cause (a message that asked
 * to forget them, message-ingestor.ts), which `causedBy` finds again for that message's retry.
 */
import { randomUUID } from 'node:crypto';
import { type Clock, type ErasureTarget, erasureStreamId, erasureTargetOf, isLiveEvent, MEMORY_ERASED, type MessageIngested, redactEvent, targetKind, UnknownMemoryError } from '@factledger/domain';
import { embeddedTexts, type EmbeddingCacheStore, textHash } from '@factledger/embeddings';
import type { AnswerReader, FactReader, ProjectionRunner } from '@factledger/projections';
import { ERASURE_RECORDED, type EventStore, type LogRedaction, type RecordedEvent, SPAN, type StreamAppend, traced } from '@factledger/store';
import { z } from 'zod';
import { currentActor } from './actor';
import { answerStreamId } from './answers';
import { decideAgainOnConflict } from './decide-again';
import { parse } from './ledger.schemas';
import { tenantSchema } from './ledger.schemas';
import type { FrameCache } from './frame-cache';
import type { StreamCache } from './stream-cache';
import type { ErasureResult } from './views';

export const erasureSchema = z
  .object({
    memoryId: z.string().trim().min(1).max(200).optional(),
    subject: z.string().trim().min(1).max(500).optional(),
    all: z.boolean().optional(),
  })
  .strict();

/** The message records read per page while looking for those that name an erased memory. */
const MESSAGE_PAGE = 500;

export class Erasures {
  constructor(
    private readonly deps: {
      store: EventStore;
      runner: ProjectionRunner;
      facts: FactReader;
      answers: AnswerReader;
      clock: Clock;
      /** The ledger's copies of streams: an erased stream's copy goes. */
      streams?: StreamCache;
      /** The ledger's copies of restatement's look-ups: those that held an erased memory go. */
      frames?: FrameCache;
      /** Where embeddings are kept by text hash: the erased texts' entries go. */
      embeddingCache?: Pick<EmbeddingCacheStore, 'forget'>;
      /** The re-review saga, run once the erasure is projected so its answers are reopened before it returns. */
      saga?: { catchUp(): Promise<number> };
      newId?: () => string;
    },
  ) {}

  async erase(tenant: string, input: z.input<typeof erasureSchema>): Promise<ErasureResult> {
    const t = parse(tenantSchema, tenant);
    const target = erasureTargetOf(parse(erasureSchema, input));
    const done = await this.run(t, targetKind(target), () => this.deps.facts.streamsToErase(t, target), null);
    return done ?? this.nothingToErase(t, target);
  }

  /**
   * Several memories (each with every version of its fact) in one erasure, recorded as caused by
   * `causationId` (a message that asked to forget them: `message:<id>`, see causedBy). Memories
   * erased before, or gone, are passed over; null when none is left to erase.
   */
  async eraseMemories(tenant: string, memoryIds: string[], options: { causationId: string }): Promise<ErasureResult | null> {
    const t = parse(tenantSchema, tenant);
    const findStreams = async () => [...new Set((await Promise.all(memoryIds.map((memoryId) => this.deps.facts.streamsToErase(t, { memoryId })))).flat())].sort();
    return this.run(t, 'memory', findStreams, options.causationId);
  }

  /** The erasures recorded as caused by `causationId` (eraseMemories), oldest first: what a retried message finds it did. */
  async causedBy(tenant: string, causationId: string): Promise<{ erasureId: string; memoryIds: string[]; position: number }[]> {
    const t = parse(tenantSchema, tenant);
    const found: { erasureId: string; memoryIds: string[]; position: number }[] = [];
    for (let after = 0; ;) {
      const page = await this.deps.store.readType(t, ERASURE_RECORDED, after, MESSAGE_PAGE);
      for (const e of page) {
        if (e.causationId !== causationId) continue;
        const d = e.data as { erasureId: string; memoryIds: string[] };
        found.push({ erasureId: d.erasureId, memoryIds: d.memoryIds, position: e.globalPosition });
      }
      if (page.length < MESSAGE_PAGE) return found;
      after = page[page.length - 1]!.globalPosition;
    }
  }

  /** One erasure of the streams `findStreams` names (read again on a conflict); null when it names none. */
  private async run(t: string, kind: ErasureResult['target'], findStreams: () => Promise<string[]>, causationId: string | null): Promise<ErasureResult | null> {
    const newId = this.deps.newId ?? randomUUID;
    // Nothing is written before the one transaction, so a retry keeps the same id.
    const erasureId = newId();
    // The read models as far as the log goes (with external workers: as far as they have applied it).
    await this.deps.runner.awaitPosition(await this.deps.store.head());
    // A write that reached one of the streams meanwhile: nothing was rewritten; plan again.
    const done = await decideAgainOnConflict(async () => {
      const streamIds = await findStreams();
      if (streamIds.length === 0) return null;
      const plan = await this.plan(t, streamIds, erasureId);
      const context = { tenant: t, commandId: null, causationId, correlationId: null, batch: null, recordedAt: this.deps.clock.now(), actor: currentActor() };
      const attributes = { 'factledger.tenant': t, 'factledger.erasure': kind, 'factledger.redactions': plan.redactions.length };
      const result = await traced(SPAN.append, attributes, () =>
        this.deps.store.redact(context, plan.redactions, (hashes): StreamAppend[] => [
          {
            streamId: erasureStreamId(erasureId),
            expectedVersion: 'no-stream',
            events: [{ eventId: newId(), type: ERASURE_RECORDED, data: { erasureId, target: kind, memoryIds: plan.memoryIds, redacted: hashes } }],
          },
          ...plan.streams.map((s) => ({
            streamId: s.streamId,
            expectedVersion: s.version,
            events: s.memoryIds.map((memoryId) => ({ eventId: newId(), type: MEMORY_ERASED, data: { memoryId, erasureId } })),
          })),
        ]),
      );
      return { streamIds, plan, position: result.positions[0]!, last: result.position, erasedAt: context.recordedAt };
    });
    if (done === null) return null;
    const { streamIds, plan, position, last, erasedAt } = done;
    for (const id of streamIds) this.deps.streams?.drop(t, id);
    this.deps.frames?.forget(t, plan.memoryIds);
    await this.deps.embeddingCache?.forget([...plan.texts].map(textHash));
    // The read side takes the MemoryErased events before the erasure answers.
    await this.deps.runner.awaitPosition(last);
    await this.deps.saga?.catchUp();
    return {
      erasureId,
      target: kind,
      position,
      erasedAt: erasedAt.toISOString(),
      memoryIds: plan.memoryIds,
      events: plan.redactions.length,
      messages: plan.messages,
      answers: plan.answers,
      alreadyErased: false,
    };
  }

  private async nothingToErase(tenant: string, target: ErasureTarget): Promise<ErasureResult> {
    const kind = targetKind(target);
    const empty = { target: kind, memoryIds: [], events: 0, messages: 0, answers: [] };
    if (!('memoryId' in target)) return { ...empty, erasureId: null, position: await this.deps.store.head(), erasedAt: null, alreadyErased: false };
    const before = await this.deps.facts.erased(tenant, target.memoryId);
    if (!before) throw new UnknownMemoryError(target.memoryId);
    return { ...empty, erasureId: before.erasureId, position: before.position, erasedAt: before.erasedAt, alreadyErased: true };
  }

  /** What the erasure of these streams takes: their memories, their texts, and every event that holds their words, as it leaves them. */
  private async plan(tenant: string, streamIds: string[], erasureId: string) {
    const { store } = this.deps;
    const read = await Promise.all(streamIds.map((id) => store.readStream(tenant, id)));
    const texts = new Set<string>();
    const streams = read.map((s, i) => {
      const ids = new Set<string>();
      const types = new Map<string, Set<string>>();
      const words = new Map<string, Set<string>>();
      for (const e of s.events) {
        if (!isLiveEvent(e)) continue;
        const d = e.data as { memoryId?: string; text?: string; type?: string; to?: string };
        if (typeof d.memoryId !== 'string') continue;
        ids.add(d.memoryId);
        const of = <T>(m: Map<string, Set<T>>): Set<T> => m.get(d.memoryId!) ?? m.set(d.memoryId!, new Set()).get(d.memoryId!)!;
        if (typeof d.text === 'string') of(words).add(d.text);
        if (typeof d.type === 'string') of(types).add(d.type);
        if (typeof d.to === 'string') of(types).add(d.to);
      }
      // Every text an embedder may have been given for it: as written, and as recall embeds it per
      // type (whole and passages).
      for (const id of ids) {
        for (const text of words.get(id) ?? []) {
          texts.add(text);
          for (const type of types.get(id) ?? []) for (const embedded of embeddedTexts(type, text)) texts.add(embedded);
        }
      }
      return { streamId: streamIds[i]!, version: s.version, events: s.events, memoryIds: [...ids] };
    });
    const memoryIds = streams.flatMap((s) => s.memoryIds);
    const erased = new Set(memoryIds);
    const redactions: LogRedaction[] = [];
    const keep = (e: RecordedEvent, ofErasedStream: boolean): boolean => {
      const data = redactEvent(e, erased, erasureId, ofErasedStream);
      if (data !== null) redactions.push({ position: e.globalPosition, data });
      return data !== null;
    };
    for (const s of streams) for (const e of s.events) keep(e, true);
    let messages = 0;
    for (let after = 0; ;) {
      const page = await store.readType(tenant, 'MessageIngested', after, MESSAGE_PAGE);
      for (const m of page) {
        if (!keep(m, false)) continue;
        messages++;
        const d = m.data as MessageIngested['data'];
        texts.add(d.text);
        for (const c of d.candidates) if (c.text) texts.add(c.text);
      }
      if (page.length < MESSAGE_PAGE) break;
      after = page[page.length - 1]!.globalPosition;
    }
    const answers: string[] = [];
    for (const { answerId } of await this.deps.answers.citingAny(tenant, memoryIds)) {
      const recorded = (await store.readStream(tenant, answerStreamId(answerId))).events.find((e) => e.type === 'AnswerRecorded');
      if (recorded) keep(recorded, false);
      answers.push(answerId);
    }
    redactions.sort((a, b) => a.position - b.position);
    return { streams, memoryIds, texts, redactions, messages, answers };
  }
}
