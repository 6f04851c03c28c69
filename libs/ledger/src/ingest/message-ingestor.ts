/**
 * IngestMessage: a raw chat message through the whole write path — triage, extraction,
 * admission gates — and the admitted memories into the ledger, in one atomic append together
 * with the record of every decision (the message's own stream). Questions are never stored as
 * memories; what the assistant says is stored as the assistant's. A retried message (same
 * `messageId`) appends nothing twice and returns the first record.
 */
import { randomUUID } from 'node:crypto';
import {
  type AdmissionPolicy,
  admit,
  type Clock,
  extractCandidates,
  type IngestedCandidate,
  type Language,
  type MessageIngested,
  messageStreamId,
  similarityNeeded,
  SPEAKERS,
  STORED_OUTCOMES,
  UnknownMessageError,
} from '@factledger/domain';
import { cosineSimilarity, type Embedder, type Embedding } from '@factledger/embeddings';
import type { EventStore } from '@factledger/store';
import { z } from 'zod';
import { type Ledger, type LedgerOp, parse } from '../ledger';
import { isoTime, tenantSchema } from '../ledger.schemas';
import { AdmissionPolicies } from './admission-policy';
import { type MessageTriager, ruleTriager } from './message-triager';

export const ingestMessageSchema = z
  .object({
    text: z.string().trim().min(1, 'text must not be empty').max(20_000),
    speaker: z.enum(SPEAKERS).default('user'),
    source: z.string().min(1).max(1000).optional(),
    messageId: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/, 'letters, digits, ".", "_", ":" or "-", at most 200 characters')
      .optional(),
    at: isoTime.optional(),
    correlationId: z.string().max(200).optional(),
  })
  .strict();

export type IngestMessageInput = z.input<typeof ingestMessageSchema>;

export interface IngestResult {
  messageId: string;
  /** Log position of the record (and of the memories it stored): a `minPosition` for reads. */
  position: number;
  /** True when this call found the message already ingested (same `messageId`) and appended nothing. */
  replayed: boolean;
  kind: 'inform' | 'ask';
  topic: string;
  language: Language;
  speaker: string;
  source: string;
  triage: string[];
  candidates: IngestedCandidate[];
  /** The memories the message's content is now in: new versions, or confirmations of existing ones. */
  stored: string[];
}

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
  newId?: () => string;
}

function resultOf(record: MessageIngested['data'], position: number, replayed: boolean): IngestResult {
  return {
    messageId: record.messageId,
    position,
    replayed,
    kind: record.kind,
    topic: record.topic,
    language: record.language,
    speaker: record.speaker,
    source: record.source,
    triage: record.triage,
    candidates: record.candidates,
    stored: [...new Set(record.candidates.filter((c) => c.outcome && STORED_OUTCOMES.has(c.outcome) && c.memoryId).map((c) => c.memoryId!))],
  };
}

export class MessageIngestor {
  private readonly policies: AdmissionPolicies;
  private readonly tenantPolicies = new Map<string, AdmissionPolicy>();
  private readonly exampleVectors = new Map<string, Promise<Embedding[]>>();
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

  async ingest(tenant: string, input: unknown): Promise<IngestResult> {
    const t = parse(tenantSchema, tenant);
    const m = parse(ingestMessageSchema, input);
    const messageId = m.messageId ?? this.newId();
    const at = m.at ?? this.deps.clock.now();
    const source = m.source ?? `message:${messageId}`;
    const policy = this.policyFor(t);
    const triager = this.deps.triager ?? ruleTriager;
    const triage = await triager.triage(m.text);
    const cues = Object.fromEntries(Object.entries(policy.types).map(([type, tp]) => [type, tp.cues]));
    const candidates = triage.kind === 'ask' ? [] : extractCandidates({ text: m.text, speaker: m.speaker, at, triage, cues });
    const similarities = await this.similarities(candidates.map((c) => c.text).join(' '), similarityNeeded(candidates, policy, triage.language), policy, triage.language);
    const decisions = admit({ candidates, policy, language: triage.language, similarity: (type) => similarities.get(type) ?? null });

    const admitted = decisions.filter((d) => d.type !== null);
    const ops: LedgerOp[] = admitted.map(({ candidate: c, type }) => ({
      assert: {
        ...(c.memoryKind === 'fact' ? { subject: c.subject, relation: c.relation, value: c.value, cardinality: c.cardinality ?? undefined } : {}),
        text: c.text,
        type,
        core: c.core,
        speaker: m.speaker,
        source,
        validFrom: c.validFrom.toISOString(),
      },
    }));
    const recordOf = (results: { outcome: IngestedCandidate['outcome']; memoryId: string }[]): MessageIngested['data'] => {
      let next = 0;
      return {
        messageId,
        text: m.text,
        speaker: m.speaker,
        source,
        at: at.toISOString(),
        kind: triage.kind,
        topic: triage.topic,
        language: triage.language,
        triage: triage.reasons,
        triagedBy: `${triager.name}; admission policy: ${this.policies.source}`,
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
          };
        }),
      };
    };
    let written: MessageIngested['data'] | null = null;
    const result = await this.deps.ledger.writeMany(t, ops, {
      // A caller-given id can come back (a retry): the command id makes that append nothing. A
      // fresh id cannot, and the record's stream (which must not exist yet) guards it anyway.
      commandId: m.messageId ? `ingest:${messageId}` : undefined,
      correlationId: m.correlationId,
      causationId: source,
      attach: (results) => {
        written = recordOf(results);
        return [{ streamId: messageStreamId(messageId), expectedVersion: 'no-stream', events: [{ eventId: this.newId(), type: 'MessageIngested', data: written }] }];
      },
    });
    if (result.replayed) return this.record(t, messageId, true);
    return resultOf(written!, result.position, false);
  }

  /** The stored record of an ingested message: its triage and every admission decision. */
  async message(tenant: string, messageId: string): Promise<IngestResult> {
    return this.record(parse(tenantSchema, tenant), messageId, false);
  }

  private async record(t: string, messageId: string, replayed: boolean): Promise<IngestResult> {
    const stream = await this.deps.store.readStream(t, messageStreamId(messageId));
    const event = stream.events.find((e) => e.type === 'MessageIngested');
    if (!event) throw new UnknownMessageError(messageId);
    return resultOf(event.data as MessageIngested['data'], event.globalPosition, replayed);
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
