/**
 * Verification of an answer's claims before it is sent (R16): one verdict per claim —
 * `supported`, `distorted` (the cited memory is current but says something else), `stale` (the
 * claim matches a value since superseded, retracted or corrected), `fabricated` (no memory says
 * it, or another speaker said it). Provenance is decisive: what the assistant said never
 * supports a claim that the user said it. A memory "says" a claim only when it states the
 * claim's value (@factledger/domain claim-value.ts): sharing the claim's subject is not enough.
 */
import { type ClaimValue, claimValue, factStreamId, type StatingMemory, statesClaimValue } from '@factledger/domain';
import type { FactReader, MemoryRow } from '@factledger/projections';
import { z } from 'zod';
import { parse } from './ledger.schemas';
import { isoTime, tenantSchema } from './ledger.schemas';
import type { ClaimVerdict } from './views';

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
    validAt: isoTime.optional(),
  })
  .strict();

/** Whether a memory says what a statement says: it states the statement's value (a fact in its value, prose in its text). */
export function says(statement: string | ClaimValue, m: StatingMemory): boolean {
  return statesClaimValue(statement, m);
}

/** A key's current version, as verification reads it and as a verdict shows it. */
type Current = StatingMemory & { memoryId: string };
const shown = (c: Current): ClaimVerdict['current'][number] => ({ memoryId: c.memoryId, value: c.value, text: c.text });

const brief = (m: MemoryRow) => ({ memoryId: m.memoryId, value: m.value, text: m.text, speaker: m.speaker, status: m.status });

export class ClaimVerifier {
  constructor(private readonly deps: { reader: FactReader; now: () => Date }) {}

  async verify(tenant: string, input: z.input<typeof verifyClaimsSchema>): Promise<{ verdicts: ClaimVerdict[] }> {
    const t = parse(tenantSchema, tenant);
    const q = parse(verifyClaimsSchema, input);
    const verdicts: ClaimVerdict[] = [];
    for (const claim of q.claims) {
      verdicts.push(claim.cites ? await this.cited(t, claim, q.validAt) : await this.uncited(t, claim, q.validAt));
    }
    return { verdicts };
  }

  /** The current version(s) of a memory's key (a prose memory is its own key). */
  private async currentOf(tenant: string, m: MemoryRow, validAt?: Date): Promise<Current[]> {
    if (m.kind !== 'fact' || m.subject === null || m.relation === null) return m.status === 'active' ? [m] : [];
    const now = validAt ?? this.deps.now();
    return this.deps.reader.valuesAt(tenant, factStreamId({ subject: m.subject, relation: m.relation, scope: m.scope }), { validAt: now, knownAt: this.deps.now() });
  }

  private async cited(tenant: string, claim: { says: string; speaker?: string; cites?: string }, validAt?: Date): Promise<ClaimVerdict> {
    const m = await this.deps.reader.memory(tenant, claim.cites!);
    const base = { says: claim.says, current: [] as ClaimVerdict['current'] };
    if (!m) return { ...base, verdict: 'fabricated', memory: null, reason: `no memory ${claim.cites} in this tenant` };
    if (claim.speaker && m.speaker !== claim.speaker) {
      return { ...base, verdict: 'fabricated', memory: brief(m), reason: `the cited memory was said by ${m.speaker}, not ${claim.speaker}` };
    }
    const value = claimValue(claim.says);
    const rows = await this.currentOf(tenant, m, validAt);
    const current = rows.map(shown);
    if (m.status === 'active') {
      return says(value, m)
        ? { ...base, verdict: 'supported', memory: brief(m), reason: 'the cited memory is current and says this' }
        : { ...base, verdict: 'distorted', memory: brief(m), current, reason: `the cited memory is current but says ${JSON.stringify(m.value ?? m.text)}` };
    }
    if (m.status === 'retired' && says(value, m)) {
      return { ...base, verdict: 'stale', memory: brief(m), current, reason: 'the cited value has since been superseded, retracted or corrected' };
    }
    const now = rows.find((c) => says(value, c));
    if (now) return { ...base, verdict: 'supported', memory: brief(m), current, reason: `the key's current value says this (memory ${now.memoryId})` };
    return { ...base, verdict: 'fabricated', memory: brief(m), current, reason: `the cited memory is ${m.status} and nothing current says this` };
  }

  private async uncited(tenant: string, claim: { says: string; speaker?: string }, validAt?: Date): Promise<ClaimVerdict> {
    const base = { says: claim.says, current: [] as ClaimVerdict['current'] };
    const value = claimValue(claim.says);
    // Only memories that state the claim's value: text search finds the ones that share its subject too.
    const found = (await this.deps.reader.matching(tenant, claim.says)).filter((m) => says(value, m));
    const bySpeaker = found.filter((m) => !claim.speaker || m.speaker === claim.speaker);
    const active = bySpeaker.find((m) => m.status === 'active');
    if (active) return { ...base, verdict: 'supported', memory: brief(active), reason: `memory ${active.memoryId} is current and says this` };
    const retired = bySpeaker.find((m) => m.status === 'retired');
    if (retired) {
      const current = (await this.currentOf(tenant, retired, validAt)).map(shown);
      return { ...base, verdict: 'stale', memory: brief(retired), current, reason: 'this matches a value since superseded, retracted or corrected' };
    }
    const other = found.find((m) => m.status !== 'quarantined');
    if (other) return { ...base, verdict: 'fabricated', memory: brief(other), reason: `only ${other.speaker} said this, not ${claim.speaker}` };
    return { ...base, verdict: 'fabricated', memory: null, reason: 'no memory says this' };
  }
}
