/**
 * Triage of a population already in the store (R19, seed 000's Fix B): select memories by type,
 * status and date; measure the judge on control samples with known answers first and stop if it
 * misses too many; judge every memory (no keyword shortcut); freeze the verdicts to a file with a
 * checksum; then, from that file only, a dry run that counts, an apply that writes every
 * quarantine and retype as one batch in one append and checks the store against the file, and a
 * rollback of that batch by compensating events. Nothing is deleted at any step.
 */
import { createHash } from 'node:crypto';
import { type AdmissionPolicy, type Clock, InvalidInputError, SPEAKERS } from '@factledger/domain';
import type { FactReader } from '@factledger/projections';
import type { EventStore } from '@factledger/store';
import { describeType } from '@factledger/embeddings';
import { z } from 'zod';
import { commandFingerprint } from '../command-id';
import type { Ledger } from '../ledger';
import type { LedgerOp } from '../ledger-writes';
import { parse } from '../ledger.schemas';
import type { RollbackResult } from '../views';
import { isoTime, tenantSchema, typeName } from '../ledger.schemas';
import { TriageControlsFailedError, TriageCountMismatchError, TriageStaleError } from './errors';
import { type JudgeAction, type JudgeInput, type JudgeTask, type MemoryJudge, sameVerdict, stripLabels } from './memory-judge';

export const populationSchema = z
  .object({
    type: typeName,
    status: z.enum(['active', 'quarantined', 'retired', 'overruled', 'any']).default('active'),
    from: isoTime.optional(),
    to: isoTime.optional(),
  })
  .strict();

const expectation = z
  .string()
  .regex(/^(?:keep|quarantine|retype:\S+)$/, 'keep, quarantine, or retype:<type>')
  .transform((s) => (s.startsWith('retype:') ? { action: 'retype' as const, type: s.slice(7) } : { action: s as 'keep' | 'quarantine' }));

export const controlSchema = z.object({ text: z.string().trim().min(1).max(20_000), speaker: z.enum(SPEAKERS).default('user'), expect: expectation }).strict();

export type ControlInput = z.input<typeof controlSchema>;

export interface TriageCounts {
  total: number;
  keep: number;
  quarantine: number;
  retype: Record<string, number>;
}

export interface FrozenVerdict {
  memoryId: string;
  /** The text as stored (for a reviewer); the judge saw it without labels. */
  text: string;
  action: JudgeAction;
  type?: string;
  label: string;
  reason: string;
}

export interface FrozenVerdicts {
  format: 'factledger-triage/1';
  tenant: string;
  population: { type: string; status: string; from: string | null; to: string | null };
  judge: string;
  frozenAt: string;
  /** The log's head when the population was read. */
  logPosition: number;
  controls: { total: number; missRate: number; maxMissRate: number; missed: { text: string; expected: string; got: string; reason: string }[] };
  counts: TriageCounts;
  verdicts: FrozenVerdict[];
  /** sha256 of the tenant, population, judge and verdicts: the file applied is the file frozen. */
  checksum: string;
}

export interface TriagePlan {
  tenant: string;
  batch: string;
  counts: TriageCounts;
  /** Verdicts whose memory changed since they were frozen (gone, other status or type). */
  changed: { memoryId: string; why: string }[];
  ops: { memoryId: string; action: 'quarantine' | 'retype'; type?: string }[];
}

export interface TriageApplied extends TriagePlan {
  position: number;
  replayed: boolean;
  /** What the store shows afterwards for the memories of the batch. */
  observed: { quarantined: number; retyped: Record<string, number> };
}

const verdictFileSchema = z
  .object({
    format: z.literal('factledger-triage/1'),
    tenant: z.string(),
    population: z.object({ type: z.string(), status: z.string(), from: z.string().nullable(), to: z.string().nullable() }),
    judge: z.string(),
    frozenAt: z.string(),
    logPosition: z.number(),
    controls: z.object({ total: z.number(), missRate: z.number(), maxMissRate: z.number(), missed: z.array(z.unknown()) }).passthrough(),
    counts: z.object({ total: z.number(), keep: z.number(), quarantine: z.number(), retype: z.record(z.string(), z.number()) }),
    verdicts: z.array(z.object({ memoryId: z.string(), text: z.string(), action: z.enum(['keep', 'quarantine', 'retype']), type: z.string().optional(), label: z.string(), reason: z.string() })),
    checksum: z.string(),
  })
  .strict();

function checksumOf(f: Pick<FrozenVerdicts, 'tenant' | 'population' | 'judge' | 'verdicts'>): string {
  const canonical = JSON.stringify([f.tenant, f.population, f.judge, f.verdicts.map((v) => [v.memoryId, v.action, v.type ?? null, v.label, v.reason])]);
  return createHash('sha256').update(canonical).digest('hex');
}

export function countVerdicts(verdicts: { action: JudgeAction; type?: string }[]): TriageCounts {
  const counts: TriageCounts = { total: verdicts.length, keep: 0, quarantine: 0, retype: {} };
  for (const v of verdicts) {
    if (v.action === 'retype') counts.retype[v.type!] = (counts.retype[v.type!] ?? 0) + 1;
    else counts[v.action]++;
  }
  return counts;
}

/** A frozen file as read back: its shape and checksum checked, so a file edited after freezing is refused. */
export function readFrozen(json: unknown): FrozenVerdicts {
  const parsed = verdictFileSchema.safeParse(json);
  if (!parsed.success) throw new InvalidInputError(parsed.error.issues.map((i) => ({ path: `verdicts.${i.path.join('.')}`, message: i.message })));
  const f = parsed.data as FrozenVerdicts;
  if (checksumOf(f) !== f.checksum) throw new InvalidInputError([{ path: 'verdicts.checksum', message: 'does not match the verdicts: the file changed after it was frozen; freeze it again' }]);
  const counts = countVerdicts(f.verdicts);
  if (JSON.stringify(counts) !== JSON.stringify(f.counts)) throw new InvalidInputError([{ path: 'verdicts.counts', message: 'do not add up to the verdicts' }]);
  return f;
}

const describe = (v: { action: JudgeAction; type?: string }) => (v.action === 'retype' ? `retype:${v.type}` : v.action);

export interface TriageDeps {
  ledger: Ledger;
  reader: FactReader;
  store: EventStore;
  clock: Clock;
  policyFor: (tenant: string) => AdmissionPolicy;
}

export class PopulationTriage {
  constructor(private readonly deps: TriageDeps) {}

  /** The task the judge gets: the population's type, what it means, what it may be retyped to. */
  task(tenant: string, type: string): JudgeTask {
    const policy = this.deps.policyFor(tenant);
    const retypeTo = [...new Set([policy.defaultType, 'preference', 'profile', ...Object.keys(policy.types)])].filter((t) => t !== type);
    return { type, description: describeType(type), retypeTo };
  }

  /** Controls first, then every memory of the population; the verdicts, frozen. Throws TriageControlsFailedError. */
  async judge(
    tenant: string,
    input: { population: unknown; controls: unknown[]; maxMissRate?: number },
    judge: MemoryJudge,
    onProgress: (done: number, total: number) => void = () => undefined,
  ): Promise<FrozenVerdicts> {
    const t = parse(tenantSchema, tenant);
    const p = parse(populationSchema, input.population);
    const maxMissRate = input.maxMissRate ?? 0.1;
    if (!(maxMissRate >= 0 && maxMissRate <= 1)) throw new InvalidInputError([{ path: 'maxMissRate', message: 'must be between 0 and 1' }]);
    const controls = input.controls.map((c, i) => {
      const r = controlSchema.safeParse(c);
      if (!r.success) throw new InvalidInputError(r.error.issues.map((x) => ({ path: `controls.${i}.${x.path.join('.')}`, message: x.message })));
      return r.data;
    });
    if (controls.length === 0) throw new InvalidInputError([{ path: 'controls', message: 'at least one control sample with a known answer is needed before a population is judged' }]);
    const task = this.task(t, p.type);
    const labels = [p.type, ...task.retypeTo];
    const now = this.deps.clock.now().toISOString();

    const controlVerdicts = await this.run(
      judge,
      task,
      controls.map((c, i): JudgeInput => ({ ref: `c${i}`, text: stripLabels(c.text, labels), speaker: c.speaker, saidAt: now })),
    );
    const missed = controls.flatMap((c, i) => {
      const got = controlVerdicts.get(`c${i}`)!;
      return sameVerdict(got, c.expect) ? [] : [{ text: c.text, expected: describe(c.expect), got: describe(got), reason: got.reason }];
    });
    const missRate = missed.length / controls.length;
    if (missRate > maxMissRate)
      throw new TriageControlsFailedError(
        missed.length,
        controls.length,
        maxMissRate,
        missed.slice(0, 3).map((m) => `"${m.text}" expected ${m.expected}, got ${m.got}`),
      );

    const logPosition = await this.deps.store.head();
    const members = await this.deps.reader.population(t, { type: p.type, status: p.status === 'any' ? null : p.status, from: p.from, to: p.to });
    const verdicts: FrozenVerdict[] = [];
    const step = 200;
    for (let i = 0; i < members.length; i += step) {
      const chunk = members.slice(i, i + step);
      const got = await this.run(
        judge,
        task,
        chunk.map((m, j): JudgeInput => ({ ref: String(i + j), text: stripLabels(m.text, labels), speaker: m.speaker, saidAt: new Date(m.saidAt).toISOString() })),
      );
      chunk.forEach((m, j) => {
        const v = got.get(String(i + j))!;
        verdicts.push({ memoryId: m.memoryId, text: m.text, action: v.action, ...(v.action === 'retype' ? { type: v.type } : {}), label: v.label, reason: v.reason });
      });
      onProgress(Math.min(i + step, members.length), members.length);
    }
    const population = { type: p.type, status: p.status, from: p.from?.toISOString() ?? null, to: p.to?.toISOString() ?? null };
    const frozen = { tenant: t, population, judge: judge.name, verdicts };
    return {
      format: 'factledger-triage/1',
      ...frozen,
      frozenAt: now,
      logPosition,
      controls: { total: controls.length, missRate, maxMissRate, missed },
      counts: countVerdicts(verdicts),
      checksum: checksumOf(frozen),
    };
  }

  /** The dry run: what an apply of this file would write now, and what changed since it was frozen. */
  async plan(json: unknown, options: { batch?: string } = {}): Promise<TriagePlan> {
    return this.planFrozen(readFrozen(json), options);
  }

  private async planFrozen(f: FrozenVerdicts, options: { batch?: string }): Promise<TriagePlan> {
    const members = new Map(
      (
        await this.deps.reader.memories(
          f.tenant,
          f.verdicts.map((v) => v.memoryId),
        )
      ).map((m) => [m.memoryId, m]),
    );
    const changed: TriagePlan['changed'] = [];
    const ops: TriagePlan['ops'] = [];
    for (const v of f.verdicts) {
      const m = members.get(v.memoryId);
      const why = !m
        ? 'no longer in the store'
        : m.type !== f.population.type
          ? `its type is now ${m.type}`
          : f.population.status !== 'any' && m.status !== f.population.status
            ? `its status is now ${m.status}`
            : null;
      if (why) changed.push({ memoryId: v.memoryId, why });
      else if (v.action !== 'keep') ops.push({ memoryId: v.memoryId, action: v.action, ...(v.type ? { type: v.type } : {}) });
    }
    const unchanged = new Set(changed.map((c) => c.memoryId));
    return { tenant: f.tenant, batch: options.batch ?? defaultBatch(f), counts: countVerdicts(f.verdicts.filter((v) => !unchanged.has(v.memoryId))), changed, ops };
  }

  /** Writes the file's quarantines and retypes as one batch, in one append, then checks the store against the file. */
  async apply(json: unknown, options: { batch?: string; skipChanged?: boolean } = {}): Promise<TriageApplied> {
    const f = readFrozen(json);
    const batch = options.batch ?? defaultBatch(f);
    const commandId = `${batch}:${f.checksum}`;
    // An apply that landed before its answer was lost (the process killed, the connection cut):
    // the file is the same, the memories it named have changed by its own batch, so a new plan
    // would call them stale. It is answered from its batch in the log instead, and checked.
    const landed = (await this.deps.store.readBatch(f.tenant, batch)).filter((e) => e.commandId === commandId);
    const plan = landed.length ? planApplied(f, batch, landed) : await this.planFrozen(f, options);
    if (!landed.length && plan.changed.length && !options.skipChanged)
      throw new TriageStaleError(
        plan.changed.length,
        plan.changed.slice(0, 3).map((c) => `${c.memoryId}: ${c.why}`),
      );
    const ops: LedgerOp[] = plan.ops.map((o) =>
      o.action === 'quarantine' ? { quarantine: { memoryId: o.memoryId, reason: `triage ${plan.batch}: judged by ${f.judge}` } } : { retype: { memoryId: o.memoryId, type: o.type! } },
    );
    // The command id is bound to the file and batch, not to the ops planned from the store as it stands now.
    const written = landed.length
      ? { position: Math.max(...landed.map((e) => e.globalPosition)), replayed: true }
      : await this.deps.ledger.writeMany(f.tenant, ops, { batch: plan.batch, commandId, fingerprint: commandFingerprint('triage-apply', { batch, checksum: f.checksum }) });
    const after = new Map(
      (
        await this.deps.reader.memories(
          f.tenant,
          plan.ops.map((o) => o.memoryId),
        )
      ).map((m) => [m.memoryId, m]),
    );
    const observed: TriageApplied['observed'] = { quarantined: 0, retyped: {} };
    for (const o of plan.ops) {
      const m = after.get(o.memoryId);
      if (o.action === 'quarantine' && m?.status === 'quarantined') observed.quarantined++;
      if (o.action === 'retype' && m?.type === o.type) observed.retyped[o.type!] = (observed.retyped[o.type!] ?? 0) + 1;
    }
    const expected = { quarantined: plan.counts.quarantine, retyped: plan.counts.retype };
    const sorted = (r: Record<string, number>) => JSON.stringify(Object.entries(r).sort());
    if (observed.quarantined !== expected.quarantined || sorted(observed.retyped) !== sorted(expected.retyped)) {
      throw new TriageCountMismatchError(plan.batch, `expected ${JSON.stringify(expected)}, the store shows ${JSON.stringify(observed)}`);
    }
    return { ...plan, position: written.position, replayed: written.replayed, observed };
  }

  /** Undoes an applied batch by compensating events (the memories come back as they were). */
  rollback(tenant: string, batch: string): Promise<RollbackResult> {
    return this.deps.ledger.rollback(tenant, { batch });
  }

  private async run(judge: MemoryJudge, task: JudgeTask, items: JudgeInput[]): Promise<Map<string, { action: JudgeAction; type?: string; label: string; reason: string }>> {
    const verdicts = items.length ? await judge.judge(task, items) : [];
    const byRef = new Map(verdicts.map((v) => [v.ref, v]));
    if (byRef.size !== items.length || items.some((i) => !byRef.has(i.ref))) throw new Error(`judge ${judge.name} answered ${byRef.size} of ${items.length} items`);
    return byRef;
  }
}

const defaultBatch = (f: FrozenVerdicts): string => `triage:${f.checksum.slice(0, 12)}`;

/** The plan an apply of this file carried out, read from its batch's events: the verdicts of the memories they changed. */
function planApplied(f: FrozenVerdicts, batch: string, events: readonly { data: unknown }[]): TriagePlan {
  const touched = new Set(events.map((e) => (e.data as { memoryId?: string }).memoryId));
  const changed: TriagePlan['changed'] = [];
  const ops: TriagePlan['ops'] = [];
  for (const v of f.verdicts) {
    if (v.action === 'keep') continue;
    if (touched.has(v.memoryId)) ops.push({ memoryId: v.memoryId, action: v.action, ...(v.type ? { type: v.type } : {}) });
    else changed.push({ memoryId: v.memoryId, why: `left out when batch ${batch} was applied` });
  }
  const left = new Set(changed.map((c) => c.memoryId));
  return { tenant: f.tenant, batch, counts: countVerdicts(f.verdicts.filter((v) => !left.has(v.memoryId))), changed, ops };
}
