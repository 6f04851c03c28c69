/**
 * Verification of an answer's claims before it is sent (R16): one verdict per claim —
 * `supported`, `distorted` (the cited memory is current but says something else), `stale` (the
 * claim matches a value since superseded, retracted or corrected), `fabricated` (no memory says
 * it, or another speaker said it). Provenance is decisive: what the assistant said never
 * supports a claim that the user said it.
 */
import { factStreamId, normalizeTerm } from '@factledger/domain';
import type { FactReader, MemoryRow } from '@factledger/projections';
import { z } from 'zod';
import { parse } from './ledger';
import { tenantSchema } from './ledger.schemas';

export const verifyClaimsSchema = z
  .object({
    claims: z
      .array(
        z
          .object({
            says: z.string().trim().min(1, 'a claim says something').max(2000),
            speaker: z.string().trim().min(1).max(100).optional(),
            cites: z.string().min(1).max(200).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(100),
    validAt: z.coerce.date().optional(),
  })
  .strict();

export type Verdict = 'supported' | 'distorted' | 'stale' | 'fabricated';

export interface ClaimVerdict {
  verdict: Verdict;
  says: string;
  /** The memory the verdict rests on, when there is one. */
  memory: { memoryId: string; value: string | null; text: string; speaker: string; status: string } | null;
  /** For `stale` and `distorted`: what memory says now. */
  current: { memoryId: string; value: string | null; text: string }[];
  reason: string;
}

const norm = (s: string): string => normalizeTerm(s).replace(/[.,!?;:'"“”‘’()]/g, '');

/** Whether a statement says what a memory says: its value (or, for prose, its text) appears in it, or it in them. */
export function says(statement: string, m: { value: string | null; text: string }): boolean {
  const claim = norm(statement);
  const held = norm(m.value ?? m.text);
  return held.length > 0 && (claim.includes(held) || (claim.length >= 3 && held.includes(claim)));
}

const brief = (m: MemoryRow) => ({ memoryId: m.memoryId, value: m.value, text: m.text, speaker: m.speaker, status: m.status });

export class ClaimVerifier {
  constructor(private readonly deps: { reader: FactReader; now: () => Date }) {}

  async verify(tenant: string, input: unknown): Promise<{ verdicts: ClaimVerdict[] }> {
    const t = parse(tenantSchema, tenant);
    const q = parse(verifyClaimsSchema, input);
    const verdicts: ClaimVerdict[] = [];
    for (const claim of q.claims) {
      verdicts.push(claim.cites ? await this.cited(t, claim, q.validAt) : await this.uncited(t, claim, q.validAt));
    }
    return { verdicts };
  }

  /** The current version(s) of a memory's key (a prose memory is its own key). */
  private async currentOf(tenant: string, m: MemoryRow, validAt?: Date): Promise<ClaimVerdict['current']> {
    if (m.kind !== 'fact' || m.subject === null || m.relation === null) return m.status === 'active' ? [{ memoryId: m.memoryId, value: m.value, text: m.text }] : [];
    const now = validAt ?? this.deps.now();
    const rows = await this.deps.reader.valuesAt(tenant, factStreamId({ subject: m.subject, relation: m.relation, scope: m.scope }), { validAt: now, knownAt: this.deps.now() });
    return rows.map((r) => ({ memoryId: r.memoryId, value: r.value, text: r.text }));
  }

  private async cited(tenant: string, claim: { says: string; speaker?: string; cites?: string }, validAt?: Date): Promise<ClaimVerdict> {
    const m = await this.deps.reader.memory(tenant, claim.cites!);
    const base = { says: claim.says, current: [] as ClaimVerdict['current'] };
    if (!m) return { ...base, verdict: 'fabricated', memory: null, reason: `no memory ${claim.cites} in this tenant` };
    if (claim.speaker && m.speaker !== claim.speaker) {
      return { ...base, verdict: 'fabricated', memory: brief(m), reason: `the cited memory was said by ${m.speaker}, not ${claim.speaker}` };
    }
    const current = await this.currentOf(tenant, m, validAt);
    if (m.status === 'active') {
      return says(claim.says, m)
        ? { ...base, verdict: 'supported', memory: brief(m), reason: 'the cited memory is current and says this' }
        : { ...base, verdict: 'distorted', memory: brief(m), current, reason: `the cited memory is current but says ${JSON.stringify(m.value ?? m.text)}` };
    }
    if (m.status === 'retired' && says(claim.says, m)) {
      return { ...base, verdict: 'stale', memory: brief(m), current, reason: 'the cited value has since been superseded, retracted or corrected' };
    }
    const now = current.find((c) => says(claim.says, c));
    if (now) return { ...base, verdict: 'supported', memory: brief(m), current, reason: `the key's current value says this (memory ${now.memoryId})` };
    return { ...base, verdict: 'fabricated', memory: brief(m), current, reason: `the cited memory is ${m.status} and nothing current says this` };
  }

  private async uncited(tenant: string, claim: { says: string; speaker?: string }, validAt?: Date): Promise<ClaimVerdict> {
    const base = { says: claim.says, current: [] as ClaimVerdict['current'] };
    const found = (await this.deps.reader.matching(tenant, claim.says)).filter((m) => says(claim.says, m) || m.value === null);
    const bySpeaker = found.filter((m) => !claim.speaker || m.speaker === claim.speaker);
    const active = bySpeaker.find((m) => m.status === 'active');
    if (active) return { ...base, verdict: 'supported', memory: brief(active), reason: `memory ${active.memoryId} is current and says this` };
    const retired = bySpeaker.find((m) => m.status === 'retired');
    if (retired) {
      return { ...base, verdict: 'stale', memory: brief(retired), current: await this.currentOf(tenant, retired, validAt), reason: 'this matches a value since superseded, retracted or corrected' };
    }
    const other = found.find((m) => m.status !== 'quarantined');
    if (other) return { ...base, verdict: 'fabricated', memory: brief(other), reason: `only ${other.speaker} said this, not ${claim.speaker}` };
    return { ...base, verdict: 'fabricated', memory: null, reason: 'no memory says this' };
  }
}
