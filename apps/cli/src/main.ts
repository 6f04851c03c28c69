/**
 * `factledger` — the command line: migrate, rebuild, history, as-of, context, trace, answers, verify, ingest, message, triage, keys, log verify, eval.
 * Commands and queries go through the same FactLedgerModule handlers as the HTTP API; with `--url`
 * (FACTLEDGER_URL) the commands that have an HTTP route call a running server instead (remote.ts).
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { LedgerError, SPEAKERS } from '@factledger/domain';
import { createLedger, ingestMessageSchema, type IngestResult, type LedgerHandle, loadConfig, parse, verifyClaimsSchema } from '@factledger/ledger';
import {
  AssembleContextQuery,
  FactLedgerModule,
  GetAnswerQuery,
  GetFactQuery,
  GetHistoryQuery,
  GetMessageQuery,
  GetSubjectQuery,
  GetTraceQuery,
  IngestMessageCommand,
  LEDGER_HANDLE,
  ListReopenedAnswersQuery,
  VerifyClaimsQuery,
} from '@factledger/nest';
import { recallOn } from '@factledger/recall';
import { systemClock } from '@factledger/domain';
import { migrateDatabase } from '@factledger/store';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { BASELINES, type BaselineName } from './eval/baselines';
import { compareRuns, EVAL_BACKENDS, type EvalBackend, evalFile, formatReport } from './eval/run-eval';
import type { ScenarioReport } from './eval/scenario-runner';
import { keysCommand } from './keys-command';
import { logCommand } from './log-command';
import { eraseCommand } from './erase-command';
import { workerCommand } from './worker-command';
import { namesFrom } from './arguments';
import { mcpCommand } from './mcp-command';
import { triageCommand } from './triage-command';
import { callServer, NoHttpRouteError, type RemoteCall, remoteServer } from './remote';

const program = new Command()
  .name('factledger')
  .description('An event-sourced, bitemporal fact ledger: the long-term memory of AI agents.')
  .option('--database-url <url>', 'PostgreSQL connection string (default: $DATABASE_URL, else embedded PGlite)')
  .option('--data-dir <dir>', 'embedded PGlite data folder (default: $FACTLEDGER_DATA_DIR or .data/factledger)')
  .option(
    '--url <base>',
    'call the server at this URL instead of opening the database it holds (default: $FACTLEDGER_URL); for history, as-of, context, trace, answers, verify, ingest, message, erase',
  )
  .option('--key <apiKey>', 'the API key sent to --url (default: $FACTLEDGER_KEY)')
  .addHelpText('after', '\nMore: README.md ("Command line"), docs/packages.md ("The command line against a running server"), docs/testing.md ("factledger eval").')
  .showHelpAfterError();

/** The local database's configuration; refused when --url names a server (the command has no route, or would read the wrong data). */
function config() {
  const o = program.opts<{ databaseUrl?: string; dataDir?: string; url?: string }>();
  if (o.url) throw new NoHttpRouteError();
  return loadConfig(process.env, {
    ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
    ...(o.dataDir ? { dataDir: o.dataDir } : {}),
  });
}

function intArg(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

/** `--baseline bm25,rrf`: names from BASELINES, each once. */
function parseBaselines(value: string): BaselineName[] {
  return namesFrom(value, BASELINES, 'baseline');
}

function json(value: string): Record<string, string> {
  try {
    const parsed = JSON.parse(value);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // fall through
  }
  throw new InvalidArgumentError('must be a JSON object, e.g. {"env":"staging"}');
}

interface Buses {
  commands: CommandBus;
  queries: QueryBus;
}

/** Runs `work` with the ledger's command and query buses, on the configured database. */
async function withBuses<T>(work: (buses: Buses) => Promise<T>, options: { indexFirst?: boolean; sagaFirst?: boolean; sagaAfter?: boolean } = {}): Promise<T> {
  const settings = config();
  const handle = await createLedger(settings);
  // Recall's model loads only when something is embedded, so reading a trace stays cheap.
  const recall = recallOn(handle.database, handle.runner, systemClock, settings, undefined, handle.replicas);
  const app = await NestFactory.createApplicationContext(FactLedgerModule.forRoot({ handle, recall }), { logger: false });
  try {
    if (options.indexFirst) await recall.indexer.catchUp();
    if (options.sagaFirst) await handle.saga.catchUp();
    const result = await work({ commands: app.get(CommandBus), queries: app.get(QueryBus) });
    // A write wakes the re-review saga on the bus; let that run finish before the database closes under it.
    if (options.sagaAfter) await handle.saga.catchUp();
    return result;
  } finally {
    await recall.stop(); // stores the traces of this run's assemblies
    await app.close();
    await (app.get(LEDGER_HANDLE) as LedgerHandle).close();
  }
}

/** The server given by --url / FACTLEDGER_URL, if any. */
const server = () => remoteServer(program.opts<{ url?: string; key?: string }>());

/** `remote` on the server given by --url, else `local` with the ledger's buses on the configured database. */
function run<T>(remote: RemoteCall, local: (buses: Buses) => Promise<T>, options: { indexFirst?: boolean; sagaFirst?: boolean; sagaAfter?: boolean } = {}): Promise<T> {
  const target = server();
  return target ? callServer<T>(target, remote) : withBuses(local, options);
}

/** A query: its HTTP route on the server given by --url, else the ledger's query bus on the configured database. */
function query<T>(remote: RemoteCall, work: (bus: QueryBus) => Promise<T>, options: { indexFirst?: boolean; sagaFirst?: boolean } = {}): Promise<T> {
  return run(remote, ({ queries }) => work(queries), options);
}

const print = (value: unknown): void => console.log(JSON.stringify(value, null, 2));

/** An ingest result for a person: the triage, then each candidate with its verdict, reason and every gate it met. */
function formatIngest(r: IngestResult): string {
  const lines = [
    `message ${r.messageId} at position ${r.position}${r.replayed ? ' (already ingested: the first record, nothing appended)' : ''}`,
    `triage: ${r.kind}, topic ${r.topic}, language ${r.language}, speaker ${r.speaker}`,
    ...r.triage.map((reason) => `  ${reason}`),
  ];
  if (r.candidates.length === 0) lines.push('candidates: none');
  r.candidates.forEach((c, i) => {
    const said = c.memoryKind === 'fact' ? `${c.subject} / ${c.relation} = ${c.value}` : JSON.stringify(c.text);
    lines.push(`candidate ${i + 1}: ${said} (${c.memoryKind}, rule ${c.rule})`);
    const verdict = `${c.verdict}${c.type ? ` as ${c.type}` : ''}`;
    lines.push(`  ${c.reason.startsWith(verdict) ? c.reason : `${verdict}: ${c.reason}`}`);
    for (const g of c.gates) lines.push(`    ${g.passed ? 'pass' : 'FAIL'}  ${g.gate}: ${g.detail}`);
    if (c.outcome) lines.push(`  ${c.outcome} ${c.memoryId}`);
  });
  lines.push(`stored: ${r.stored.length ? r.stored.join(', ') : 'nothing'}`);
  if (r.forgotten) {
    const f = r.forgotten;
    lines.push(`forgotten (${f.how}): ${f.memoryIds.length ? f.memoryIds.join(', ') : 'nothing'}; ${f.statements} statement(s) of this message left out`);
    for (const a of f.ambiguous) lines.push(`  ambiguous, nothing taken: ${a.memoryIds.join(', ')}`);
  }
  return lines.join('\n');
}

program
  .command('migrate')
  .description('apply pending SQL migrations from migrations/')
  .action(async () => {
    const c = config();
    const applied = await migrateDatabase({ url: c.databaseUrl, dataDir: c.dataDir });
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
  });

program
  .command('rebuild')
  .description('rebuild a projection from position 0 of the log')
  .argument('[projection]', 'projection name', 'facts')
  .action(async (name: string) => {
    const handle = await createLedger(config());
    try {
      const { events, ms } = await handle.runner.rebuild(name);
      console.log(`rebuilt '${name}' from ${events} events in ${ms} ms`);
    } finally {
      await handle.close();
    }
  });

program
  .command('history')
  .description("a key's full bitemporal history, with the event that opened and closed each row")
  .requiredOption('--subject <subject>')
  .requiredOption('--relation <relation>')
  .option('--scope <json>', 'scope qualifiers as a JSON object', json)
  .option('--tenant <tenant>', 'memory space', 'default')
  .action(async (o: { subject: string; relation: string; scope?: Record<string, string>; tenant: string }) => {
    const input = { subject: o.subject, relation: o.relation, scope: o.scope };
    const remote: RemoteCall = { method: 'GET', tenant: o.tenant, path: 'history', query: { ...input, scope: o.scope && JSON.stringify(o.scope) } };
    print(await query(remote, (bus) => bus.execute(new GetHistoryQuery(o.tenant, input))));
  });

program
  .command('as-of')
  .description('what was true at --valid-at, as the ledger knew it at --known-at (both default to now)')
  .requiredOption('--subject <subject>')
  .option('--relation <relation>', 'one key; without it, every fact of the subject')
  .option('--scope <json>', 'scope qualifiers as a JSON object', json)
  .option('--valid-at <time>', 'ISO 8601 valid time')
  .option('--known-at <time>', 'ISO 8601 transaction time')
  .option('--tenant <tenant>', 'memory space', 'default')
  .action(async (o: { subject: string; relation?: string; scope?: Record<string, string>; validAt?: string; knownAt?: string; tenant: string }) => {
    const at = { validAt: o.validAt, knownAt: o.knownAt };
    const remote: RemoteCall = o.relation
      ? { method: 'GET', tenant: o.tenant, path: 'facts', query: { subject: o.subject, relation: o.relation, scope: o.scope && JSON.stringify(o.scope), ...at } }
      : { method: 'GET', tenant: o.tenant, path: `subjects/${encodeURIComponent(o.subject)}`, query: at };
    print(
      await query<unknown>(remote, (bus) =>
        o.relation
          ? bus.execute(new GetFactQuery(o.tenant, { subject: o.subject, relation: o.relation, scope: o.scope, ...at }))
          : bus.execute(new GetSubjectQuery(o.tenant, { subject: o.subject, ...at })),
      ),
    );
  });

program
  .command('context')
  .description('assemble the context recall would put into a prompt for this message (indexes pending memories first)')
  .argument('<message>', 'the latest user message')
  .option('--tenant <tenant>', 'memory space', 'default')
  .option('--budget <tokens>', 'token budget for the whole context', intArg, 400)
  .option('--valid-at <date>', 'what was true then (default now)')
  .option('--known-at <date>', 'as the ledger knew it then (default now)')
  .action(async (message: string, o: { tenant: string; budget: number; validAt?: string; knownAt?: string }) => {
    const input = { query: message, budgetTokens: o.budget, validAt: o.validAt, knownAt: o.knownAt };
    const remote: RemoteCall = { method: 'POST', tenant: o.tenant, path: 'context', body: input };
    print(await query(remote, (bus) => bus.execute(new AssembleContextQuery(o.tenant, input)), { indexFirst: true }));
  });

program
  .command('trace')
  .description('how one context was assembled, stage by stage (the id comes with every assembled context)')
  .argument('<id>', 'trace id')
  .option('--tenant <tenant>', 'memory space', 'default')
  .action(async (id: string, o: { tenant: string }) => {
    print(await query({ method: 'GET', tenant: o.tenant, path: `traces/${encodeURIComponent(id)}` }, (bus) => bus.execute(new GetTraceQuery(o.tenant, { id }))));
  });

program
  .command('answers')
  .description('the answers waiting for review (reopened by the re-review saga), or one answer with what became of its citations')
  .argument('[answer-id]', 'one answer')
  .option('--tenant <tenant>', 'memory space', 'default')
  .action(async (answerId: string | undefined, o: { tenant: string }) => {
    const remote: RemoteCall = { method: 'GET', tenant: o.tenant, path: answerId ? `answers/${encodeURIComponent(answerId)}` : 'answers' };
    print(
      await query(remote, (bus): Promise<unknown> => (answerId ? bus.execute(new GetAnswerQuery(o.tenant, { answerId })) : bus.execute(new ListReopenedAnswersQuery(o.tenant, {}))), {
        sagaFirst: true,
      }),
    );
  });

program
  .command('verify')
  .description("check an answer's claims against memory: supported, distorted, stale or fabricated")
  .requiredOption('--claims <json>', 'a JSON array of {says, speaker?, cites?}', (v) => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      throw new InvalidArgumentError('must be a JSON array, e.g. [{"says":"port 8080","speaker":"user"}]');
    }
  })
  .option('--tenant <tenant>', 'memory space', 'default')
  .action(async (o: { claims: unknown; tenant: string }) => {
    const input = parse(verifyClaimsSchema, { claims: o.claims });
    print(await query({ method: 'POST', tenant: o.tenant, path: 'verifications', body: input }, (bus) => bus.execute(new VerifyClaimsQuery(o.tenant, input))));
  });

program
  .command('ingest')
  .description('a raw chat message through triage, extraction and the admission gates; prints every decision and why')
  .argument('<text>', 'the message')
  .addOption(new Option('--speaker <speaker>', 'who said it').choices(SPEAKERS).default('user'))
  .option('--tenant <tenant>', 'memory space', 'default')
  .option('--message-id <id>', 'its id, so a retry appends nothing twice (default: a new one)')
  .option('--json', 'print the whole result as JSON')
  .action(async (text: string, o: { speaker: string; tenant: string; messageId?: string; json?: boolean }) => {
    const input = parse(ingestMessageSchema, { text, speaker: o.speaker, messageId: o.messageId });
    const remote: RemoteCall = { method: 'POST', tenant: o.tenant, path: 'messages', body: input };
    const result = await run<IngestResult>(remote, ({ commands }) => commands.execute(new IngestMessageCommand(o.tenant, input)), { sagaAfter: true });
    if (o.json) print(result);
    else console.log(formatIngest(result));
  });

program
  .command('message')
  .description('the stored record of an ingested message: its triage and every admission decision')
  .argument('<message-id>', 'the id `ingest` printed')
  .option('--tenant <tenant>', 'memory space', 'default')
  .action(async (messageId: string, o: { tenant: string }) => {
    print(await query({ method: 'GET', tenant: o.tenant, path: `messages/${encodeURIComponent(messageId)}` }, (bus) => bus.execute(new GetMessageQuery(o.tenant, { messageId }))));
  });

program
  .command('eval')
  .description('run memory scenarios (JSON Lines; the step kinds are in docs/testing.md, "factledger eval"), each on a fresh ledger')
  .argument('<files...>', 'scenario files')
  .addOption(
    new Option('--backend <backend>', 'where the fresh ledgers live (kurrentdb: the log at KURRENTDB_URL or a local protocol server, the read models in PostgreSQL)')
      .choices([...EVAL_BACKENDS])
      .default('pglite'),
  )
  .option('--json <file>', 'also write a machine-readable report (every query step with its context text)')
  .option('--baseline <names>', `also run each file through baselines (comma-separated: ${BASELINES.join(', ')}) and compare the query steps`, parseBaselines)
  .option('--traces', "with --json: keep each query's whole trace (pool, scores, cuts) beside its context")
  .option('--recall <json>', "recall's tuning for this run, as FACTLEDGER_RECALL takes it (default: FACTLEDGER_RECALL, else the defaults)")
  .option('--verbose', 'print every step, not only checks and failures')
  .option('--quiet', 'print only the totals and the comparison, not every failed step')
  .option('--only-supported', 'exit 0 when the only failures are step kinds this build does not support yet')
  .action(
    async (files: string[], o: { backend: EvalBackend; json?: string; baseline?: BaselineName[]; recall?: string; traces?: boolean; verbose?: boolean; quiet?: boolean; onlySupported?: boolean }) => {
      const recallTuning = o.recall ?? process.env.FACTLEDGER_RECALL;
      const reports: ScenarioReport[] = [];
      for (const file of files) reports.push(await evalFile(file, o.backend, { recallTuning, traces: o.traces }));
      const show = (rs: typeof reports) => (o.quiet ? rs.map((r) => `${r.file}: ${r.passed} passed, ${r.failed} failed`).join('\n') : formatReport(rs, o.verbose));
      console.log(show(reports));
      const baselines: { name: BaselineName; reports: typeof reports }[] = [];
      for (const name of o.baseline ?? []) {
        const run: ScenarioReport[] = [];
        for (const file of files) run.push(await evalFile(file, o.backend, { baseline: name }));
        baselines.push({ name, reports: run });
        console.log(`\n== baseline: ${name}`);
        console.log(show(run));
      }
      if (baselines.length) console.log(`\n== factledger beside ${baselines.map((b) => b.name).join(', ')}\n${compareRuns([{ name: 'factledger', reports }, ...baselines])}`);
      else if (reports.some((r) => r.steps.some((s) => s.note && s.step === 'query'))) console.log(`\n${compareRuns([{ name: 'factledger', reports }])}`);
      if (o.json)
        writeFileSync(o.json, JSON.stringify({ backend: o.backend, reports, ...(baselines.length ? { baselines: Object.fromEntries(baselines.map((b) => [b.name, b.reports])) } : {}) }, null, 2));
      const failures = reports.flatMap((r) => r.steps).filter((st) => st.status === 'failed');
      const blocking = o.onlySupported ? failures.filter((st) => st.supported) : failures;
      if (o.onlySupported) console.log(`scenario steps of supported kinds: ${blocking.length} failed; ${failures.length - blocking.length} of kinds not supported yet`);
      if (blocking.length > 0) process.exitCode = 1;
    },
  );

program.addCommand(logCommand(config));
program.addCommand(eraseCommand(config, server));
program.addCommand(workerCommand(config));
program.addCommand(mcpCommand(config));
program.addCommand(triageCommand(config));
program.addCommand(keysCommand(config));

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof LedgerError ? `${error.code}: ${error.message}` : error);
  process.exitCode = 1;
});
