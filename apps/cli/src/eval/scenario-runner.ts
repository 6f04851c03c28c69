/**
 * Runs memory scenarios (../shared/eval/FORMAT.md) against a fresh ledger, through the same
 * CommandBus/QueryBus handlers that serve HTTP. Each step sets the ledger's clock to its `at`.
 */
import { LedgerError, type ManualClock } from '@factledger/domain';
import { factQuerySchema, type FactView, ingestMessageSchema, type IngestResult, parse, retypeSchema, type RollbackResult, verifyClaimsSchema, type WriteResult } from '@factledger/ledger';
import { oneLine, recallQuerySchema, type RecallResult } from '@factledger/recall';
import {
  AssembleContextQuery,
  AssertMemoryCommand,
  GetAnswerQuery,
  GetTraceQuery,
  RecordAnswerCommand,
  VerifyClaimsQuery,
  GetFactQuery,
  IngestMessageCommand,
  QuarantineMemoryCommand,
  RestoreMemoryCommand,
  RetractMemoryCommand,
  RetypeMemoryCommand,
  RollbackBatchCommand,
} from '@factledger/nest';
import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Baseline } from './baselines';

export type StepStatus = 'passed' | 'failed' | 'done';

export interface StepReport {
  line: number;
  step: string;
  tenant: string;
  status: StepStatus;
  detail: string;
  /** False for step kinds that this build does not implement yet (reported as failed). */
  supported: boolean;
  /** The step's `note` (a query's category, say), for reports grouped by it. */
  note?: string;
  /** How many texts a query step expects in its context (`expect.contains`). */
  expected?: number;
  /** How many texts a query step forbids (`expect.absent`: a value since replaced, say). */
  forbids?: number;
  /** What a query step put into the prompt, so that a failed one can be studied after the run. */
  context?: { text: string; tokens: number; traceId?: string; items: { memoryId?: string; channel: string; text: string }[]; trace?: Record<string, unknown> };
}

export interface ScenarioReport {
  file: string;
  steps: StepReport[];
  passed: number;
  failed: number;
}

/** What a query step is checked against: recall's answer or the baseline's. */
interface AssembledContext {
  text: string;
  tokens: number;
  budgetTokens: number;
  items: { memoryId?: string; channel: string; text: string }[];
  traceId?: string;
}

export interface LedgerBus {
  commandBus: CommandBus;
  queryBus: QueryBus;
  clock: ManualClock;
  /** Brings recall's index and the planner's statistics up to date before a query (a live server's workers do both in the background). */
  indexRecall(): Promise<unknown>;
  /** Runs the re-review saga over everything written so far (a live server runs it in the background). */
  runSaga(): Promise<unknown>;
  /** Carries every change so far to the memories that hang on it (the cascade; a live server runs it in the background). */
  runCascade?(): Promise<unknown>;
  /** Keeps each query's whole trace in its report (`factledger eval --traces`). */
  withTraces?: boolean;
}

/** A baseline (a flat store, see baselines.ts) in place of the ledger. */
export interface BaselineBus {
  clock: ManualClock;
  baseline: Baseline;
}

export type ScenarioBus = LedgerBus | BaselineBus;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Step = Record<string, any>;

const FIRST_AT = new Date('2026-12-01T00:00:00Z');
const WRITE_STEPS = new Set(['assert', 'retract', 'quarantine', 'restore', 'retype', 'rollback']);
/** Step kinds that later parts of the product add; reported as failed until then, never skipped. */
const NOT_YET = new Set<string>();
const STEP_FIELDS = new Set(['step', 'tenant', 'at', 'note', 'expect', 'as', 'ref']);

class StepFailure extends Error {}

function parseAt(text: string, field = 'at'): Date {
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(d.getTime())) throw new StepFailure(`'${field}' is not a date: ${text}`);
  return d;
}

/** The step's own fields, without the runner's (kind, tenant, clock, alias, expectation). */
function inputOf(step: Step): Step {
  return Object.fromEntries(Object.entries(step).filter(([k]) => !STEP_FIELDS.has(k)));
}

export async function runScenario(file: string, text: string, bus: ScenarioBus): Promise<ScenarioReport> {
  const aliases = new Map<string, string>();
  const answers = new Map<string, string>();
  const steps: StepReport[] = [];
  let at = new Date(0);
  let first = true;
  // Once a step of an unsupported kind has been skipped, later checks may fail for want of it:
  // such failures are reported as failed, and flagged as not attributable to this build.
  let afterUnsupported = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (!raw) continue;
    let step: Step;
    try {
      step = JSON.parse(raw);
    } catch (error) {
      steps.push({ line: i + 1, step: '?', tenant: '', status: 'failed', detail: `not JSON: ${(error as Error).message}`, supported: true });
      continue;
    }
    const tenant: string = step.tenant ?? 'default';
    const report = (status: StepStatus, detail: string, supported = true, context?: StepReport['context']): void => {
      const blamed = status === 'failed' && supported && afterUnsupported;
      steps.push({
        line: i + 1,
        step: String(step.step),
        tenant,
        status,
        detail: blamed ? `after a step this build does not support yet: ${detail}` : detail,
        supported: supported && !blamed,
        ...(typeof step.note === 'string' ? { note: step.note } : {}),
        ...(step.step === 'query' && Array.isArray(step.expect?.contains) ? { expected: step.expect.contains.length } : {}),
        ...(step.step === 'query' && Array.isArray(step.expect?.absent) && step.expect.absent.length ? { forbids: step.expect.absent.length } : {}),
        ...(context ? { context } : {}),
      });
    };
    try {
      const next = step.at ? parseAt(step.at) : first ? FIRST_AT : new Date(at.getTime() + 1000);
      if (next < at) throw new StepFailure(`'at' ${step.at} is earlier than the previous step's ${at.toISOString()}`);
      at = next;
      first = false;
      bus.clock.set(at);
      if (step.step === 'note') continue;
      if (NOT_YET.has(step.step)) {
        report('failed', `step kind '${step.step}' is not supported yet`, false);
        afterUnsupported = true;
        continue;
      }
      if ('baseline' in bus) {
        const [status, detail, context] = await runBaseline(step, tenant, at, bus.baseline);
        report(status, detail, true, context);
        continue;
      }
      if (WRITE_STEPS.has(step.step)) {
        const expectRejected = step.expect?.rejected === true;
        try {
          const result = await runWrite(step, tenant, aliases, bus);
          if (expectRejected) report('failed', `expected the write to be rejected, but it was accepted (${result})`);
          else report(step.expect ? 'passed' : 'done', result);
        } catch (error) {
          if (!(error instanceof LedgerError || error instanceof UnknownAlias)) throw error;
          if (expectRejected) report('passed', `rejected: ${error.message}`);
          else report('failed', `rejected: ${error.message}`);
        }
        continue;
      }
      if (step.step === 'message') {
        report(...(await checkMessage(step, tenant, at, aliases, bus)));
        continue;
      }
      if (step.step === 'fact') {
        report(...(await checkFact(step, tenant, bus)));
        continue;
      }
      if (step.step === 'query') {
        const [status, detail, context] = await checkQuery(step, tenant, bus);
        report(status, detail, true, context);
        continue;
      }
      if (step.step === 'answer') {
        const cites = ((step.cites ?? []) as string[]).map((ref) => resolve(aliases, { ref }));
        const result = await bus.commandBus.execute(new RecordAnswerCommand(tenant, { question: step.question ?? '', text: step.text, cites }));
        if (step.as) answers.set(step.as, result.answerId);
        report('done', `answer ${result.answerId} recorded at position ${result.position}, citing ${cites.length}`);
        continue;
      }
      if (step.step === 'verify') {
        const claims = ((step.claims ?? []) as Step[]).map((c) => (c.cites ? { ...c, cites: resolve(aliases, { ref: c.cites }) } : c));
        const result = await bus.queryBus.execute(new VerifyClaimsQuery(tenant, parse(verifyClaimsSchema, { claims })));
        const got = result.verdicts.map((v: { verdict: string }) => v.verdict);
        const detail = result.verdicts.map((v: { verdict: string; reason: string }) => `${v.verdict} (${v.reason})`).join('; ');
        if (!step.expect?.verdicts) report('done', detail);
        else report(JSON.stringify(got) === JSON.stringify(step.expect.verdicts) ? 'passed' : 'failed', `expected ${JSON.stringify(step.expect.verdicts)}, got ${detail}`);
        continue;
      }
      if (step.step === 'expect') {
        report(...(await checkReopened(step, tenant, answers, bus)));
        continue;
      }
      report('failed', `unknown step kind '${step.step}'`);
    } catch (error) {
      report('failed', error instanceof StepFailure || error instanceof LedgerError ? error.message : `error: ${(error as Error).stack}`);
    }
  }
  return {
    file,
    steps,
    passed: steps.filter((s) => s.status === 'passed').length,
    failed: steps.filter((s) => s.status === 'failed').length,
  };
}

class UnknownAlias extends Error {
  constructor(alias: string) {
    super(`no memory is known by the alias '${alias}'`);
  }
}

function resolve(aliases: Map<string, string>, step: Step): string {
  const id = aliases.get(step.ref);
  if (!id) throw new UnknownAlias(String(step.ref));
  return id;
}

async function runWrite(step: Step, tenant: string, aliases: Map<string, string>, bus: LedgerBus): Promise<string> {
  const input = inputOf(step);
  const { commandBus } = bus;
  let result: WriteResult;
  switch (step.step) {
    case 'assert':
      result = await commandBus.execute(new AssertMemoryCommand(tenant, input));
      if (step.as) aliases.set(step.as, result.memoryId);
      break;
    case 'retract':
      result = await commandBus.execute(new RetractMemoryCommand(tenant, step.ref ? { ...input, memoryId: resolve(aliases, step) } : input));
      break;
    case 'quarantine':
      result = await commandBus.execute(new QuarantineMemoryCommand(tenant, { ...input, memoryId: resolve(aliases, step) }));
      break;
    case 'restore':
      result = await commandBus.execute(new RestoreMemoryCommand(tenant, { ...input, memoryId: resolve(aliases, step) }));
      break;
    case 'retype':
      result = await commandBus.execute(new RetypeMemoryCommand(tenant, parse(retypeSchema, { ...input, memoryId: resolve(aliases, step) })));
      break;
    default: {
      const rollback: RollbackResult = await commandBus.execute(new RollbackBatchCommand(tenant, { batch: step.batch }));
      return `rolled back ${rollback.batch}: ${rollback.items.map((it) => `${it.change} ${it.result}`).join('; ')}`;
    }
  }
  return `${result.outcome} ${result.memoryId} at position ${result.position}`;
}

async function checkFact(step: Step, tenant: string, bus: LedgerBus): Promise<[StepStatus, string]> {
  await bus.runCascade?.();
  const query: Step = { subject: step.subject, relation: step.relation };
  for (const k of ['scope', 'validAt', 'knownAt']) if (step[k] !== undefined) query[k] = step[k];
  const view: FactView = await bus.queryBus.execute(new GetFactQuery(tenant, parse(factQuerySchema, query)));
  const seen = view.cardinality === 'many' ? `values ${JSON.stringify(view.values)}` : `value ${JSON.stringify(view.value)}`;
  const expect = step.expect;
  if (!expect) return ['done', seen];
  if ('values' in expect) {
    const want = [...(expect.values as string[])].sort();
    const got = [...view.values].sort();
    return [JSON.stringify(want) === JSON.stringify(got) ? 'passed' : 'failed', `expected values ${JSON.stringify(want)}, saw ${seen}`];
  }
  if ('value' in expect) {
    const got = view.cardinality === 'many' ? (view.values.length === 1 ? view.values[0] : view.values.length ? view.values : null) : view.value;
    const ok = JSON.stringify(got ?? null) === JSON.stringify(expect.value);
    return [ok ? 'passed' : 'failed', `expected value ${JSON.stringify(expect.value)}, saw ${seen}`];
  }
  return ['failed', `a fact step's expect needs 'value' or 'values'`];
}

/** A message through the whole write path; checks its triage, what was stored, as which types, with which values. */
async function checkMessage(step: Step, tenant: string, at: Date, aliases: Map<string, string>, bus: LedgerBus): Promise<[StepStatus, string]> {
  // An imported chat's message carries its own time (`saidAt`); the step's `at` stays the ledger's clock.
  const { saidAt, ...input } = inputOf(step);
  const result: IngestResult = await bus.commandBus.execute(
    new IngestMessageCommand(tenant, parse(ingestMessageSchema, { ...input, at: saidAt === undefined ? at.toISOString() : parseAt(saidAt, 'saidAt').toISOString() })),
  );
  if (step.as && result.stored[0]) aliases.set(step.as, result.stored[0]);
  const kept = result.candidates.filter((c) => c.memoryId !== null && result.stored.includes(c.memoryId));
  const types = [...new Set(kept.map((c) => c.type!))].sort();
  const values = kept.map((c) => c.value).filter((v): v is string => v !== null);
  const seen = `${result.kind} (${result.topic}); ${result.candidates.map((c) => `${c.verdict}${c.type ? ` as ${c.type}` : ''}: ${c.value ?? c.text} — ${c.reason}`).join('; ') || 'no candidates'}`;
  const expect = step.expect;
  if (!expect) return ['done', seen];
  const problems: string[] = [];
  if (expect.kind !== undefined && expect.kind !== result.kind) problems.push(`kind ${result.kind}, expected ${expect.kind}`);
  if (expect.stored !== undefined && expect.stored !== result.stored.length > 0) problems.push(expect.stored ? 'nothing was stored' : `${result.stored.length} memories were stored`);
  if (expect.types !== undefined && JSON.stringify([...(expect.types as string[])].sort()) !== JSON.stringify(types))
    problems.push(`stored types ${JSON.stringify(types)}, expected ${JSON.stringify(expect.types)}`);
  for (const v of (expect.values ?? []) as string[]) if (!values.includes(v)) problems.push(`no extracted fact has the value ${JSON.stringify(v)} (values: ${JSON.stringify(values)})`);
  return problems.length ? ['failed', `${problems.join('; ')} — ${seen}`] : ['passed', seen];
}

type Judged = [StepStatus, string, StepReport['context']?];

async function checkQuery(step: Step, tenant: string, bus: LedgerBus): Promise<Judged> {
  await bus.indexRecall();
  const input: Step = { query: step.query };
  for (const k of ['budgetTokens', 'validAt', 'knownAt']) if (step[k] !== undefined) input[k] = step[k];
  const context: RecallResult = await bus.queryBus.execute(new AssembleContextQuery(tenant, parse(recallQuerySchema, input)));
  const judged = judgeContext(step, context);
  if (bus.withTraces && judged[2]) judged[2].trace = await bus.queryBus.execute(new GetTraceQuery(tenant, { id: context.traceId }));
  return judged;
}

/** The baseline keeps every asserted text and answers queries; it has no other writes and no structured reads. */
async function runBaseline(step: Step, tenant: string, at: Date, rag: Baseline): Promise<Judged> {
  if (step.step === 'assert') {
    const text = step.text ?? `${step.subject} ${step.relation} ${step.value}`;
    await rag.add(tenant, text, at);
    return ['done', `indexed: ${text}`];
  }
  if (step.step === 'message') {
    // A plain RAG store has no door: every message is indexed as it came, questions and small talk included.
    await rag.add(tenant, step.text, step.saidAt === undefined ? at : parseAt(step.saidAt, 'saidAt'));
    const wrong = step.expect?.stored === false || step.expect?.kind === 'ask';
    return [wrong ? 'failed' : 'done', `indexed as it came: ${step.text}`];
  }
  if (step.step === 'query') return judgeContext(step, await rag.query(tenant, step.query, step.budgetTokens));
  return ['done', `'${step.step}' has no effect on naive RAG`];
}

/**
 * Whether a context's text holds a text, looked for as the block shows it too (one line, "<"
 * before a tag's letter as "‹"): a message with markup in it is in the context when its line is,
 * for factledger and every baseline alike.
 */
export function contextShows(contextText: string, text: string): boolean {
  return contextText.includes(text) || contextText.includes(oneLine(text));
}

function judgeContext(step: Step, context: AssembledContext): Judged {
  const seen = `${context.items.length} items, ${context.tokens}/${context.budgetTokens} tokens, ${context.text.length} chars${context.traceId ? ` (trace ${context.traceId})` : ''}`;
  const shownContext: StepReport['context'] = {
    text: context.text,
    tokens: context.tokens,
    ...(context.traceId ? { traceId: context.traceId } : {}),
    items: context.items.map((it) => ({ ...(it.memoryId ? { memoryId: it.memoryId } : {}), channel: it.channel, text: it.text })),
  };
  const expect = step.expect;
  if (!expect) return ['done', seen, shownContext];
  const problems: string[] = [];
  for (const s of (expect.contains ?? []) as string[]) if (!contextShows(context.text, s)) problems.push(`missing ${JSON.stringify(s)}`);
  for (const s of (expect.absent ?? []) as string[]) if (contextShows(context.text, s)) problems.push(`should not show ${JSON.stringify(s)}`);
  if (typeof expect.maxChars === 'number' && context.text.length > expect.maxChars) problems.push(`${context.text.length} chars > ${expect.maxChars}`);
  const shown = context.items.map((it) => `[${it.channel}] ${it.text}`).join(' | ');
  return problems.length ? ['failed', `${problems.join('; ')} — ${seen}: ${shown}`, shownContext] : ['passed', seen, shownContext];
}

async function checkReopened(step: Step, tenant: string, answers: Map<string, string>, bus: LedgerBus): Promise<[StepStatus, string]> {
  await bus.runSaga();
  const problems: string[] = [];
  const seen: string[] = [];
  const check = async (alias: string, wantReopened: boolean): Promise<void> => {
    const id = answers.get(alias);
    if (!id) {
      problems.push(`no answer is known by the alias '${alias}'`);
      return;
    }
    const view = await bus.queryBus.execute(new GetAnswerQuery(tenant, { answerId: id }));
    seen.push(`${alias}: ${view.status}${view.reopened ? ` (${view.reopened.reason})` : ''}`);
    if ((view.status === 'reopened') !== wantReopened) problems.push(`${alias} should ${wantReopened ? '' : 'not '}be reopened`);
  };
  for (const a of (step.reopened ?? []) as string[]) await check(a, true);
  for (const a of (step.notReopened ?? []) as string[]) await check(a, false);
  return [problems.length ? 'failed' : 'passed', `${problems.length ? `${problems.join('; ')} — ` : ''}${seen.join('; ')}`];
}
