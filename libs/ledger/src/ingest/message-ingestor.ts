/**
 * IngestMessage: a raw chat message through the whole write path — triage, extraction,
 * admission gates, resolution — and the admitted memories into the ledger, in one atomic append
 * together with the record of every decision (the message's own stream). Questions are never
 * stored as memories; what the assistant says is stored as the assistant's. A retried message
 * (same `messageId`) appends nothing twice and returns the first record.
 *
 * Resolution (see @factledger/domain resolution.ts): each admitted statement is compared with the
 * speaker's earlier memories that share its words; one it changes in other words is retracted
 * from the statement's valid time (withdrawn entirely for a correction), in the same append, with
 * the rule in the retraction's reason and the message's batch label `resolution:<messageId>` on
 * it, so that `rollback` of that batch brings the earlier memories back. A memory of the same key
 * is left to the decider (an ordinary supersession).
 *
 * Forgetting (see @factledger/domain forgetting.ts): a user's sentence that asks to forget ("please
 * erase that from your memory", "don't keep my passport number", "그거 지워줘") is no statement. It
 * and the statements of the message it names are stored nowhere, and the record's text leaves
 * them out. The user's earlier memories it names — what they said the same way for `that`, or
 * else the latest; the latest about a thing named, with those saying the same; every one holding
 * a value named — and the assistant's turns that repeat a value of them are erased through the
 * Erasures use case, in one erasure caused by `message:<messageId>`, before the message's own
 * writes are planned: a retry after a crash finds that erasure and still writes the record. Several
 * memories by one name with nothing to tell them apart: nothing is taken, and the result says so.
 * Where the log cannot be rewritten (KurrentDB) or no Erasures is given, they are quarantined in
 * the message's own append instead: out of every read and context, their words kept in the log.
 */
import { randomUUID } from 'node:crypto';
import {
  dependencyOf,
  phraseWords,
  ruleOf,
  type AdmissionPolicy,
  admit,
  analyzeStatement,
  chooseByThing,
  type Clock,
  distinctiveValues,
  type Forgotten,
  type ForgettingPlan,
  holdsValue,
  planForgetting,
  saysSame,
  thingOf,
  EVENT_TYPES,
  normalizeTerm,
  RESOLUTION_BATCH,
  type ResolvedMemory,
  resolveStatement,
  type Statement,
  searchWordsOf,
  statementSized,
  type Candidate,
  type Language,
  type MessageIngested,
  messageStreamId,
  similarityNeeded,
  UnknownMessageError,
  CommandIdReusedError,
} from '@factledger/domain';
import { cosineSimilarity, type Embedder, type Embedding } from '@factledger/embeddings';
import { type EventStore, SPAN, type Span, traced } from '@factledger/store';
import { z } from 'zod';
import { currentActor } from '../actor';
import type { Erasures } from '../erasures';
import type { OpResult } from '../append-loop';
import { commandFingerprint } from '../command-id';
import type { Ledger } from '../ledger';
import type { LedgerOp } from '../ledger-writes';
import { parse } from '../ledger.schemas';
import type { IngestResult, ResemblingView } from '../views';
import { RULE_TYPE } from '../cascade.saga';
import { tenantSchema } from '../ledger.schemas';
import { AdmissionPolicies } from './admission-policy';
import { asResolved, ingestMessageSchema, messageIdSchema, resultOf, sameMessage } from './message-record';
import { type MessageExtractor, ruleExtractor } from './message-extractor';
import { type MessageTriager, ruleTriager } from './message-triager';

export interface IngestorDeps {
  ledger: Ledger;
  store: EventStore;
  clock: Clock;
  policies?: AdmissionPolicies;
  /** For the similarity gates; without one those gates are recorded as not measured. */
  embedder?: Embedder;
  /** The languages the embedder's vectors mean something for; 'all' for a multilingual model. */
  embedderLanguages?: Language[] | 'all';
  /** Informing or asking: the offline rules unless a model is plugged in. */
  triager?: MessageTriager;
  /** Who reads triples out of statements: the offline rules unless a model is plugged in. */
  extractor?: MessageExtractor;
  /** Whether statements are compared with earlier memories (default true). */
  resolution?: boolean;
  /** Takes away what a user asks to forget; without it (or on a log that cannot be rewritten) those memories are quarantined. */
  erasures?: Pick<Erasures, 'eraseMemories' | 'causedBy'>;
  newId?: () => string;
}

/** What the record's triage says of a message's requests to forget: counts, never words. */
function forgettingReason(f: Forgotten): string {
  const taken = f.memoryIds.length ? `${f.memoryIds.length} earlier memor${f.memoryIds.length === 1 ? 'y' : 'ies'} ${f.how}` : 'no earlier memory taken';
  const open = [f.ambiguous.length ? `${f.ambiguous.length} ambiguous (nothing taken for it)` : '', f.unmatched ? `${f.unmatched} naming nothing said` : ''].filter(Boolean);
  return `forgetting: ${f.requests} request(s) to forget; ${f.statements} statement(s) of this message left out with them; ${taken}${open.length ? `; ${open.join(', ')}` : ''}`;
}

/** Statement analyses kept (a few KB each). */
const MAX_ANALYSES = 5000;

export class MessageIngestor {
  private readonly policies: AdmissionPolicies;
  private readonly tenantPolicies = new Map<string, AdmissionPolicy>();
  private readonly exampleVectors = new Map<string, Promise<Embedding[]>>();
  /** Analyses of statements by language and text, most recent last: a user's memories are compared again with every message. */
  private readonly analyses = new Map<string, Statement>();
  private readonly newId: () => string;

  constructor(private readonly deps: IngestorDeps) {
    this.policies = deps.policies ?? new AdmissionPolicies();
    this.newId = deps.newId ?? randomUUID;
  }

  policyFor(tenant: string): AdmissionPolicy {
    let p = this.tenantPolicies.get(tenant);
    if (!p) this.tenantPolicies.set(tenant, (p = this.policies.for(tenant)));
    return p;
  }

  /**
   * One message through triage, extraction, the admission gates and resolution, in a SPAN.ingest
   * span; each admission decision of a message ingested now (not a replay) is a span event
   * `admission` with its verdict and the gate that decided it.
   */
  ingest(tenant: string, input: z.input<typeof ingestMessageSchema>): Promise<IngestResult> {
    return traced(SPAN.ingest, { 'factledger.tenant': tenant }, (span) => this.ingestMessage(tenant, input, span));
  }

  private async ingestMessage(tenant: string, input: z.input<typeof ingestMessageSchema>, span: Span): Promise<IngestResult> {
    const t = parse(tenantSchema, tenant);
    const m = parse(ingestMessageSchema, input);
    const messageId = m.messageId ?? this.newId();
    // A message already on record (a retry whose first answer was lost) is answered from its
    // record, never planned again: planning again would see the first attempt's own memories (its
    // resolution could retire them, or name one the read models do not hold yet) and fail before
    // the append's command id could say it landed.
    if (m.messageId) {
      const landed = await this.landed(t, messageId, true, m);
      if (landed) {
        span.setAttribute('factledger.replayed', true);
        return landed;
      }
    }
    const at = m.at ?? this.deps.clock.now();
    const source = m.source ?? `message:${messageId}`;
    const policy = this.policyFor(t);
    const triager = this.deps.triager ?? ruleTriager;
    const triage = await triager.triage(m.text);
    // Only the user asks to forget: a tool's output or a document is data, never an instruction.
    const planned = m.speaker === 'user' ? planForgetting(triage.sentences, triage.language) : null;
    const asked = planned && planned.requests.length > 0 ? planned : null;
    const said = asked ? { ...triage, sentences: triage.sentences.filter((_, i) => !asked.leftOut.has(i)) } : triage;
    const text = asked ? said.sentences.map((s) => s.text).join(' ') : m.text;
    // Taken away before anything is planned: resolution must not compare with what is going.
    const forgetting = asked ? await this.forget(t, messageId, m.messageId !== undefined, at, triage.language, asked) : null;
    const forgotten = new Set(forgetting?.forgotten.memoryIds ?? []);
    const cues = Object.fromEntries(Object.entries(policy.types).map(([type, tp]) => [type, tp.cues]));
    const extractor = this.deps.extractor ?? ruleExtractor;
    const known = async () => (await this.deps.ledger.knownKeys(t, { speaker: m.speaker })).map((k) => ({ subject: k.subject, relation: k.relation }));
    const candidates = triage.kind === 'ask' ? [] : await extractor.extract({ text, speaker: m.speaker, at, triage: said, cues }, known);
    const similarities = await this.similarities(candidates.map((c) => c.text).join(' '), similarityNeeded(candidates, policy, triage.language), policy, triage.language);
    const decisions = admit({ candidates, policy, language: triage.language, similarity: (type) => similarities.get(type) ?? null });

    const admitted = decisions.filter((d) => d.type !== null);
    // Memories that hang on memories (R32, cascade.saga.ts): a rule for later is a rule, never a
    // value; a statement that says what it hangs on is linked to the speaker's memory of that.
    const hanging = await Promise.all(admitted.map(({ candidate: c }) => this.hangsOn(t, m.speaker, c.text, triage.language, at)));
    const resolved = await this.resolve(
      t,
      m.speaker,
      triage.language,
      at,
      admitted.map((d) => d.candidate),
      hanging,
    );
    // A memory being quarantined as forgotten is no earlier memory to compare with.
    const resolutions = resolved.map((r) => r.memories.filter((x) => !forgotten.has(x.memoryId)));
    const batch = resolutions.some((r) => r.some((x) => x.effect !== 'kept')) ? `${RESOLUTION_BATCH}${messageId}` : undefined;
    // The decision says it too (the record shows the type the memory is stored as).
    admitted.forEach((d, i) => {
      if (hanging[i]!.rule) d.type = RULE_TYPE;
    });
    const ops: LedgerOp[] = admitted.map(({ candidate: c, type }, i) => ({
      assert: {
        ...(c.memoryKind === 'fact' ? { subject: c.subject ?? undefined, relation: c.relation ?? undefined, value: c.value ?? undefined, cardinality: c.cardinality ?? undefined } : {}),
        text: c.text,
        type: type ?? undefined,
        ...(hanging[i]!.dependsOn.length ? { dependsOn: hanging[i]!.dependsOn } : {}),
        core: c.core,
        speaker: m.speaker,
        source,
        // Said at the message's time; a start only when the statement said one ("last weekend"):
        // otherwise it holds from when it was said, and a later change may be dated before it.
        saidAt: at.toISOString(),
        ...(c.validFrom.getTime() !== at.getTime() ? { validFrom: c.validFrom.toISOString() } : {}),
        ...(resolved[i]!.until ? { validTo: resolved[i]!.until.toISOString() } : {}),
        // A fix in plain words ("typo", "Tacoma, not Seattle"): the value it replaces never held (a triple's own key).
        ...(c.correction && c.memoryKind === 'fact' ? { mode: 'correction' as const } : {}),
      },
    }));
    // Each earlier memory retired once, after the asserts (whose results the record reads first).
    const retiring = new Map<string, { validFrom: string; reason: string }>();
    admitted.forEach((_, i) => {
      for (const r of resolutions[i]!) {
        if (r.effect === 'kept' || retiring.has(r.memoryId)) continue;
        retiring.set(r.memoryId, { validFrom: r.retireFrom, reason: `${r.action === 'correct' ? 'corrected' : 'changed'} in other words by message ${messageId}: ${r.rule}` });
      }
    });
    // The assistant's short turns that repeated a value the user has just changed ("Keeping Ironleaf
    // Fitness in the loop will help") say the stale value as much as the user's memory did: retired
    // with it (in the record beside it, and in its batch), unless they also say the new one.
    if (m.speaker === 'user') {
      for (const rs of resolutions) {
        for (const r of [...rs]) {
          const { oldValue, newValue, valueKind } = r.scores;
          // A value with a shape or a name ("Ironleaf Fitness", a port, an address), not a common word ("vegan").
          if (r.effect === 'kept' || !oldValue || oldValue.length < 3 || valueKind === null || valueKind === 'word') continue;
          for (const e of await this.holding(t, 'assistant', oldValue, at)) {
            if (retiring.has(e.memoryId) || forgotten.has(e.memoryId) || !statementSized(e.text) || (newValue && holdsValue(e.text, newValue))) continue;
            const rule = `the assistant repeated ${JSON.stringify(oldValue)}, which this statement changed`;
            rs.push({ memoryId: e.memoryId, text: e.text, action: 'supersede', rule, scores: { ...r.scores }, effect: 'retracted', retireFrom: r.retireFrom });
            retiring.set(e.memoryId, { validFrom: r.retireFrom, reason: `changed in other words by message ${messageId}: ${rule}` });
          }
        }
      }
    }
    for (const [memoryId, r] of retiring) ops.push({ retract: { memoryId, validFrom: r.validFrom, reason: r.reason } });
    for (const memoryId of forgetting?.quarantine ?? [])
      ops.push({ quarantine: { memoryId, reason: `forgotten at the user's request (message ${messageId}); this log cannot be rewritten, so its words stay there` } });
    const recordOf = (results: OpResult[], written: string | null): MessageIngested['data'] => {
      let next = 0;
      let admittedIndex = 0;
      // What frame alignment did beside resolution (a value restated in the same words), per admitted candidate.
      // A forgotten memory's words stay out of the record, even where alignment met it.
      const framed = results
        .slice(0, admitted.length)
        .map((r) => (r.restated ?? []).map(asResolved).map((x) => (forgotten.has(x.memoryId) ? { ...x, text: '', scores: { ...x.scores, oldValue: null } } : x)));
      const frameRetired = new Set(
        framed
          .flat()
          .filter((r) => r.effect !== 'kept')
          .map((r) => r.memoryId),
      );
      const frameUnsure = new Set(
        framed
          .flat()
          .filter((r) => r.frame?.holds === 'unsure')
          .map((r) => r.memoryId),
      );
      return {
        messageId,
        text,
        speaker: m.speaker,
        source,
        at: at.toISOString(),
        kind: triage.kind,
        topic: triage.topic,
        language: triage.language,
        triage: forgetting ? [...triage.reasons, forgettingReason(forgetting.forgotten)] : triage.reasons,
        triagedBy: `${triager.name}; extraction: ${extractor.name}; admission policy: ${this.policies.source}`,
        candidates: decisions.map(({ candidate: c, ...d }) => {
          const written = d.type !== null ? results[next++] : undefined;
          return {
            ...d,
            memoryKind: c.memoryKind,
            subject: c.subject,
            relation: c.relation,
            value: c.value,
            text: c.text,
            validFrom: c.validFrom.toISOString(),
            rule: c.rule,
            outcome: written?.outcome ?? null,
            memoryId: written?.memoryId ?? null,
            ...(d.type !== null && (this.deps.resolution !== false || framed[admittedIndex]?.length)
              ? { resolution: [...resolutions[admittedIndex]!.map(({ retireFrom: _, ...r }) => r), ...(framed[admittedIndex++] ?? [])] }
              : {}),
          };
        }),
        resolved: {
          retired: new Set([...retiring.keys(), ...frameRetired]).size,
          keptUnsure: new Set([
            ...resolutions
              .flat()
              .filter((r) => r.effect === 'kept')
              .map((r) => r.memoryId),
            ...frameUnsure,
          ]).size,
          batch: retiring.size || frameRetired.size ? written : null,
        },
        ...(forgetting ? { forgotten: forgetting.forgotten } : {}),
      };
    };
    let written: MessageIngested['data'] | null = null;
    const result = await this.deps.ledger.writeMany(t, ops, {
      // A caller-given id can come back (a retry): the command id makes that append nothing. A
      // fresh id cannot, and the record's stream (which must not exist yet) guards it anyway.
      commandId: m.messageId ? `ingest:${messageId}` : undefined,
      // Bound to the message, not to the ops: a retry may plan them on a state that has changed since.
      fingerprint: m.messageId ? commandFingerprint('ingest', m) : undefined,
      correlationId: m.correlationId,
      causationId: source,
      batch,
      restatementBatch: `${RESOLUTION_BATCH}${messageId}`,
      attach: (results, labelled) => {
        written = recordOf(results, labelled);
        return [{ streamId: messageStreamId(messageId), expectedVersion: 'no-stream', events: [{ eventId: this.newId(), type: 'MessageIngested', data: written }] }];
      },
    });
    span.setAttribute('factledger.replayed', result.replayed);
    if (forgetting) span.setAttribute('factledger.forgotten', forgetting.forgotten.memoryIds.length);
    if (result.replayed) return this.record(t, messageId, true);
    for (const d of decisions) span.addEvent('admission', { 'factledger.verdict': d.verdict, 'factledger.gate': d.gates.find((g) => !g.passed)?.gate ?? 'all passed' });
    return resultOf(written!, result.position, false, currentActor());
  }

  /**
   * Per admitted candidate, the speaker's earlier memories it changes or resembles (see the
   * module's note), with what is to be done to each. Memories of the candidate's own key, and
   * its own text again, are the decider's to judge. `until`: where a memory said after the
   * statement ends it (see endedBySaidLater); null when none does.
   */
  private async resolve(
    tenant: string,
    speaker: string,
    language: Language,
    at: Date,
    candidates: Omit<Candidate, 'labels'>[],
    hanging: readonly { conditional: boolean; dependsOn: string[] }[],
  ): Promise<{ memories: (ResolvedMemory & { retireFrom: string })[]; until: Date | null }[]> {
    if (this.deps.resolution === false || candidates.length === 0) return candidates.map(() => ({ memories: [], until: null }));
    const now = this.deps.clock.now();
    return Promise.all(
      candidates.map(async (c, i) => {
        // A long account is never compared (see statementSized), and a rule for later changes
        // nothing now, whoever says it ("when we get a new lead, the courier becomes …"): the
        // cascade applies it when its premise changes. Nothing to look up for either.
        if (!statementSized(c.text) || hanging[i]!.conditional) return { memories: [], until: null };
        // What a statement hangs on is the ground it stands on, not a value it replaces.
        const premises = new Set(hanging[i]!.dependsOn);
        const statement = this.analyze(c.text, language);
        const shapes = [...new Set(statement.values.map((v) => v.kind).filter((k): k is 'email' | 'phone' => k === 'email' || k === 'phone'))];
        const lookup = { speaker, words: searchWordsOf(statement), shapes, limit: 20 };
        const comparable = (e: ResemblingView): boolean =>
          e.text !== c.text &&
          // What happened stays true: an event is never retired (see EVENT_TYPES); a new one may change a state.
          !EVENT_TYPES.has(e.type) &&
          // A rule for later, or a statement that says what it hangs on, is about something else that
          // names this slot: a change of the slot applies the rule or unconfirms it (the cascade), never retires it.
          e.type !== RULE_TYPE &&
          !premises.has(e.memoryId) &&
          dependencyOf(e.text, language) === null &&
          !(
            c.memoryKind === 'fact' &&
            e.kind === 'fact' &&
            normalizeTerm(e.subject ?? '') === normalizeTerm(c.subject ?? '') &&
            normalizeTerm(e.relation ?? '') === normalizeTerm(c.relation ?? '') &&
            Object.keys(e.scope).length === 0
          );
        const earlier = (await this.deps.ledger.resembling(tenant, { ...lookup, now: at })).filter(comparable);
        const byId = new Map(earlier.map((e) => [e.memoryId, e]));
        // When each was said, not when it was recorded: an imported chat's messages all arrive now.
        const compared = earlier.map((e) => ({ memoryId: e.memoryId, text: e.text, relation: e.relation, validFrom: new Date(e.validFrom), saidAt: new Date(e.saidAt) }));
        const memories = resolveStatement(c.text, language, { validFrom: c.validFrom, saidAt: at }, compared, (text, lang) => this.analyze(text, lang)).map(({ retireFrom, ...r }) => ({
          ...r,
          text: byId.get(r.memoryId)!.text,
          retireFrom: retireFrom.toISOString(),
          effect: r.action === 'keep-both' ? ('kept' as const) : r.action === 'correct' ? ('withdrawn' as const) : ('retracted' as const),
        }));
        // Only a statement said before now can have been changed by what the ledger holds already.
        const ended = at < now ? this.endedBySaidLater(language, at, c, (await this.deps.ledger.resembling(tenant, { ...lookup, now })).filter(comparable)) : null;
        if (!ended) return { memories, until: null };
        return { memories: [...memories.filter((r) => r.memoryId !== ended.by.memoryId), ended.by], until: ended.until };
      }),
    );
  }

  /**
   * A chat imported out of order: of the memories valid now (`later`), the first said after the
   * statement that changes it, as resolution would have decided had the two come in order (the
   * later one compared with this one). The statement is then written as history, its period ending
   * where that memory would have retired it (`until`), never as current; the memory is kept, and
   * the record says why. Null when none said after it changes it.
   */
  private endedBySaidLater(language: Language, at: Date, c: Omit<Candidate, 'labels'>, later: ResemblingView[]): { until: Date; by: ResolvedMemory & { retireFrom: string } } | null {
    let found: { until: Date; by: ResolvedMemory & { retireFrom: string } } | null = null;
    for (const e of later) {
      const [saidAt, validFrom] = [new Date(e.saidAt), new Date(e.validFrom)];
      if (saidAt <= at) continue;
      const [r] = resolveStatement(e.text, language, { validFrom, saidAt }, [{ memoryId: e.memoryId, text: c.text, relation: c.relation, validFrom: c.validFrom, saidAt: at }], (text, lang) =>
        this.analyze(text, lang),
      );
      if (!r || r.action === 'keep-both') continue;
      // Where the later memory would have retired it: from its own start, or from when it was said.
      const until = validFrom > c.validFrom ? validFrom : saidAt;
      if (until <= c.validFrom || (found && found.until <= until)) continue;
      const rule = `said after this statement (${e.saidAt}) and changes it (${r.rule}): both kept, this one as history until ${until.toISOString()}`;
      found = { until, by: { memoryId: e.memoryId, text: e.text, action: 'keep-both', rule, scores: r.scores, effect: 'kept', retireFrom: until.toISOString() } };
    }
    return found;
  }

  /**
   * A message's requests to forget (see the module's note): what each names of the user's
   * memories, the assistant's turns that repeat a value of them, and those taken away — erased
   * now, or to be quarantined in the message's append (`quarantine`). A request whose thing names
   * several memories that nothing tells apart takes nothing. `retried`: the id was the caller's,
   * so an erasure this message caused before (a first attempt that failed after it) is looked for.
   */
  private async forget(tenant: string, messageId: string, retried: boolean, at: Date, language: Language, plan: ForgettingPlan): Promise<{ forgotten: Forgotten; quarantine: string[] }> {
    const speaker = 'user';
    const erases = this.deps.erasures !== undefined && this.deps.store.capabilities.redact;
    const causationId = messageStreamId(messageId);
    const counts = { requests: plan.requests.length, statements: plan.requests.reduce((n, r) => n + r.said.length, 0) };
    if (erases && retried) {
      const before = await this.deps.erasures!.causedBy(tenant, causationId);
      if (before.length > 0) {
        return { forgotten: { ...counts, memoryIds: [...new Set(before.flatMap((e) => e.memoryIds))], how: 'erased', erasureId: before[0]!.erasureId, ambiguous: [], unmatched: 0 }, quarantine: [] };
      }
    }
    const taken = new Set<string>();
    const values = new Set<string>();
    const ambiguous: { memoryIds: string[] }[] = [];
    let unmatched = 0;
    for (const r of plan.requests) {
      const picks = new Map<string, string>();
      const heard = new Set<string>();
      const unsure: string[][] = [];
      for (const target of r.request.targets) {
        if (target.kind === 'said' && r.said.length > 0) {
          for (const statement of r.said) {
            distinctiveValues(statement).forEach((v) => heard.add(v));
            for (const e of await this.sayingTheSame(tenant, speaker, statement, language, at)) picks.set(e.memoryId, e.text);
          }
        } else if (target.kind === 'said') {
          for (const e of await this.deps.ledger.saidLast(tenant, { speaker, now: at })) picks.set(e.memoryId, e.text);
        } else {
          const thing = thingOf(target.thing);
          if (thing.value) heard.add(thing.value);
          const found = thing.value
            ? await this.holding(tenant, speaker, thing.value, at)
            : thing.words.length
              ? await this.deps.ledger.resembling(tenant, { speaker, words: thing.words, every: true, now: at, limit: 50 })
              : [];
          const choice = chooseByThing(
            found.map((e) => ({ memoryId: e.memoryId, text: e.text, saidAt: new Date(e.saidAt) })),
            target.thing,
            language,
          );
          if (choice && 'ambiguous' in choice) unsure.push(choice.ambiguous);
          else for (const id of choice?.chosen ?? []) picks.set(id, found.find((e) => e.memoryId === id)!.text);
        }
      }
      // Another part of the request may tell them apart ("my address — don't keep 4 Pine Road").
      const open = unsure.filter((ids) => !ids.some((id) => picks.has(id)));
      if (open.length > 0) {
        ambiguous.push({ memoryIds: [...new Set(open.flat())] });
        continue;
      }
      if (picks.size === 0 && r.said.length === 0) unmatched++;
      for (const [id, said] of picks) {
        taken.add(id);
        // A statement's values, not those of a long account that happens to be the latest.
        if (statementSized(said)) distinctiveValues(said).forEach((v) => heard.add(v));
      }
      heard.forEach((v) => values.add(v));
    }
    // The assistant's turns that repeat a value forgotten: the user's words in the agent's mouth.
    for (const value of values) for (const e of await this.holding(tenant, 'assistant', value, at)) taken.add(e.memoryId);
    const memoryIds = [...taken];
    const decided = { ...counts, ambiguous, unmatched };
    if (memoryIds.length === 0) return { forgotten: { ...decided, memoryIds, how: erases ? 'erased' : 'quarantined', erasureId: null }, quarantine: [] };
    if (!erases) return { forgotten: { ...decided, memoryIds, how: 'quarantined', erasureId: null }, quarantine: memoryIds };
    const erased = await this.deps.erasures!.eraseMemories(tenant, memoryIds, { causationId });
    return { forgotten: { ...decided, memoryIds: erased?.memoryIds ?? [], how: 'erased', erasureId: erased?.erasureId ?? null }, quarantine: [] };
  }

  /** The speaker's memories that say what a statement says (the same text, or its values and slot): what its `that` also takes. */
  private async sayingTheSame(tenant: string, speaker: string, statement: string, language: Language, at: Date): Promise<ResemblingView[]> {
    const slot = [...this.analyze(statement, language).slot];
    const found = new Map<string, ResemblingView>();
    if (slot.length > 0) for (const e of await this.deps.ledger.resembling(tenant, { speaker, words: slot, every: true, now: at, limit: 50 })) found.set(e.memoryId, e);
    for (const value of distinctiveValues(statement)) for (const e of await this.holding(tenant, speaker, value, at)) found.set(e.memoryId, e);
    return [...found.values()].filter((e) => saysSame(statement, e.text, language));
  }

  /** The speaker's memories that hold a value as written, looked up by its parts (a host, a code's letters and digits). */
  private async holding(tenant: string, speaker: string, value: string, at: Date): Promise<ResemblingView[]> {
    const lead = value.match(/^[\p{L}\p{N}@._-]+/u)?.[0];
    const parts = [...new Set([...(lead ? [lead] : []), ...(value.match(/[\p{L}\p{N}]{3,}/gu) ?? [])])];
    if (parts.length === 0) return [];
    return (await this.deps.ledger.resembling(tenant, { speaker, words: parts, now: at, limit: 50 })).filter((e) => holdsValue(e.text, value));
  }

  /**
   * Whether a statement says what follows a change (`conditional`: it changes nothing now, whoever
   * says it), whether it is kept as a rule for later (not from the assistant: its echo of a rule is
   * no instruction), and the speaker's memories it says it hangs on: the newest that has every word
   * of what it names ("a new team lead would pick again": the memory of who the team lead is).
   */
  private async hangsOn(tenant: string, speaker: string, text: string, language: Language, at: Date): Promise<{ conditional: boolean; rule: boolean; dependsOn: string[] }> {
    const conditional = ruleOf(text, language) !== null;
    const rule = conditional && speaker !== 'assistant';
    const dependency = rule ? null : dependencyOf(text, language);
    if (!dependency) return { conditional, rule, dependsOn: [] };
    const named = (await this.deps.ledger.resembling(tenant, { speaker, words: dependency.onWords, now: at, limit: 20 })).find(
      (e) => e.type !== RULE_TYPE && e.text !== text && dependency.onWords.every((w) => phraseWords([e.subject ?? '', e.relation ?? '', e.text].join(' ')).includes(w)),
    );
    return { conditional, rule, dependsOn: named ? [named.memoryId] : [] };
  }

  private analyze(text: string, language: Language): Statement {
    const key = `${language}\u0000${text}`;
    let found = this.analyses.get(key);
    if (found) this.analyses.delete(key);
    else found = analyzeStatement(text, language);
    this.analyses.set(key, found);
    if (this.analyses.size > MAX_ANALYSES) this.analyses.delete(this.analyses.keys().next().value!);
    return found;
  }

  /** The stored record of an ingested message: its triage and every admission decision. */
  async message(tenant: string, messageId: string): Promise<IngestResult> {
    const { messageId: id } = parse(z.object({ messageId: messageIdSchema }), { messageId });
    return this.record(parse(tenantSchema, tenant), id, false);
  }

  private async record(t: string, messageId: string, replayed: boolean): Promise<IngestResult> {
    const found = await this.landed(t, messageId, replayed);
    if (!found) throw new UnknownMessageError(messageId);
    return found;
  }

  /**
   * The message's record as the log holds it; null when it has none. With `retry`, the message sent
   * again: a record of another message under its id is refused (CommandIdReusedError), not answered.
   */
  private async landed(t: string, messageId: string, replayed = true, retry?: z.output<typeof ingestMessageSchema>): Promise<IngestResult | null> {
    const stream = await this.deps.store.readStream(t, messageStreamId(messageId));
    const event = stream.events.find((e) => e.type === 'MessageIngested');
    if (!event) return null;
    const record = event.data as MessageIngested['data'];
    if (retry && !sameMessage(record, retry)) throw new CommandIdReusedError(`ingest:${messageId}`);
    return resultOf(record, event.globalPosition, replayed, event.actor);
  }

  private async similarities(text: string, types: string[], policy: AdmissionPolicy, language: Language): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const { embedder } = this.deps;
    const languages = this.deps.embedderLanguages ?? ['en'];
    if (!embedder || types.length === 0 || (languages !== 'all' && !languages.includes(language))) return out;
    const [vector] = await embedder.embed([text]);
    for (const type of types) {
      const examples = policy.types[type]!.examples;
      const key = `${embedder.model}\u0000${examples.join('\u0000')}`;
      let vectors = this.exampleVectors.get(key);
      if (!vectors) {
        vectors = embedder.embed(examples);
        this.exampleVectors.set(key, vectors);
        vectors.catch(() => this.exampleVectors.delete(key));
      }
      out.set(type, Math.max(...(await vectors).map((v) => cosineSimilarity(vector!, v))));
    }
    return out;
  }
}
