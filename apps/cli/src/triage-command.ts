/**
 * `factledger triage`: population triage from the command line (R19). `judge` measures the judge
 * on control samples, judges the population and freezes the verdicts to a file; `apply` reads
 * only that file (`--dry-run` prints the counts and writes nothing); `rollback` undoes a batch.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { systemClock } from '@factledger/domain';
import { AdmissionPolicies, createLedger, type LedgerConfig, LlmJudge, type MemoryJudge, PopulationTriage, RuleJudge, type TriageCounts, type TriagePlan } from '@factledger/ledger';
import { LlmNotConfiguredError, OpenAiChatModel } from '@factledger/llm';
import { CachedEmbedder, PostgresEmbeddingCache } from '@factledger/embeddings';
import { embedderFrom } from '@factledger/recall';
import { Command, InvalidArgumentError, Option } from 'commander';

function rate(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError('must be a number between 0 and 1');
  return n;
}

/** Controls as a JSON array or JSON Lines: `{"text": "...", "speaker": "user", "expect": "keep|quarantine|retype:<type>"}`. */
function readControls(file: string): unknown[] {
  const text = readFileSync(file, 'utf8').trim();
  try {
    if (text.startsWith('[')) return JSON.parse(text) as unknown[];
    return text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as unknown);
  } catch (error) {
    throw new InvalidArgumentError(`${file} is not a JSON array or JSON Lines: ${(error as Error).message}`);
  }
}

const formatCounts = (c: TriageCounts): string =>
  `${c.total} memories: keep ${c.keep}, quarantine ${c.quarantine}, retype ${
    Object.entries(c.retype)
      .map(([t, n]) => `${n} to ${t}`)
      .join(', ') || '0'
  }`;

const formatPlan = (p: TriagePlan): string[] => [
  `batch ${p.batch} (tenant ${p.tenant})`,
  `verdicts: ${formatCounts(p.counts)}`,
  `writes: ${p.ops.filter((o) => o.action === 'quarantine').length} quarantines, ${p.ops.filter((o) => o.action === 'retype').length} retypes, in one append`,
  ...(p.changed.length ? [`changed since frozen (left out only with --skip-changed): ${p.changed.length}`, ...p.changed.slice(0, 5).map((c) => `  ${c.memoryId}: ${c.why}`)] : []),
];

/** The triage use case on the configured database; closed when `work` is done. */
async function withTriage<T>(
  config: () => LedgerConfig,
  work: (t: PopulationTriage, extra: { judge(name: string, tenant: string): MemoryJudge; settle(): Promise<unknown> }) => Promise<T>,
): Promise<T> {
  const settings = config();
  const handle = await createLedger(settings);
  const policies = AdmissionPolicies.fromFile(settings.admissionPolicy);
  const triage = new PopulationTriage({ ledger: handle.ledger, reader: handle.reader, store: handle.store, clock: systemClock, policyFor: (t) => policies.for(t) });
  try {
    return await work(triage, {
      judge(name, tenant) {
        // The configured model behind the same persistent cache recall uses: a text is embedded once.
        if (name === 'rules') return new RuleJudge(policies.for(tenant), new CachedEmbedder(embedderFrom(settings), new PostgresEmbeddingCache(handle.database.db)));
        if (!settings.llmUrl || !settings.llmModel) throw new LlmNotConfiguredError('the language-model judge');
        return new LlmJudge(new OpenAiChatModel({ baseUrl: settings.llmUrl, model: settings.llmModel, apiKey: settings.llmApiKey }));
      },
      // Quarantined and retyped memories may have been cited: the re-review saga reopens those answers now.
      settle: () => handle.saga.catchUp(),
    });
  } finally {
    await handle.close();
  }
}

export function triageCommand(config: () => LedgerConfig): Command {
  const triage = new Command('triage').description('judge a population already in the store, freeze the verdicts, apply them as one batch, roll back');

  triage
    .command('judge')
    .description('measure the judge on control samples, then judge every memory of the population and freeze the verdicts to a file')
    .requiredOption('--type <type>', 'the stored type to question, e.g. milestone')
    .addOption(new Option('--status <status>', 'which memories').choices(['active', 'quarantined', 'retired', 'overruled', 'any']).default('active'))
    .option('--from <date>', 'recorded on or after (ISO 8601)')
    .option('--to <date>', 'recorded before (ISO 8601)')
    .requiredOption('--controls <file>', 'control samples with known answers (JSON array or JSON Lines)')
    .option('--max-miss-rate <rate>', 'stop when the judge misses more of the controls than this', rate, 0.1)
    .addOption(new Option('--judge <judge>', 'rules (offline) or llm (FACTLEDGER_LLM_URL/MODEL, temperature 0)').choices(['rules', 'llm']).default('rules'))
    .requiredOption('--out <file>', 'where to freeze the verdicts')
    .option('--tenant <tenant>', 'memory space', 'default')
    .action(async (o: { type: string; status: string; from?: string; to?: string; controls: string; maxMissRate: number; judge: string; out: string; tenant: string }) => {
      await withTriage(config, async (t, extra) => {
        const frozen = await t.judge(
          o.tenant,
          { population: { type: o.type, status: o.status, from: o.from, to: o.to }, controls: readControls(o.controls), maxMissRate: o.maxMissRate },
          extra.judge(o.judge, o.tenant),
          (done, total) => process.stderr.write(`\rjudged ${done}/${total}`),
        );
        process.stderr.write('\n');
        writeFileSync(o.out, `${JSON.stringify(frozen, null, 2)}\n`);
        console.log(
          `controls: ${frozen.controls.total - frozen.controls.missed.length}/${frozen.controls.total} as expected (miss rate ${(frozen.controls.missRate * 100).toFixed(1)}%, at most ${(frozen.controls.maxMissRate * 100).toFixed(1)}%)`,
        );
        console.log(`verdicts by ${frozen.judge}: ${formatCounts(frozen.counts)}`);
        console.log(`frozen to ${o.out} (checksum ${frozen.checksum.slice(0, 12)}); next: factledger triage apply ${o.out} --dry-run`);
      });
    });

  triage
    .command('apply')
    .description('write the frozen quarantines and retypes as one batch and check the store against the file')
    .argument('<file>', 'the file `triage judge` froze')
    .option('--dry-run', 'print the counts and what changed since freezing; write nothing')
    .option('--batch <label>', 'batch label (default: triage:<checksum>)')
    .option('--skip-changed', 'leave out memories that changed since the verdicts were frozen')
    .action(async (file: string, o: { dryRun?: boolean; batch?: string; skipChanged?: boolean }) => {
      const frozen = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      await withTriage(config, async (t, extra) => {
        if (o.dryRun) {
          console.log(['dry run: nothing written', ...formatPlan(await t.plan(frozen, o))].join('\n'));
          return;
        }
        const applied = await t.apply(frozen, o);
        await extra.settle();
        console.log(
          [
            ...formatPlan(applied),
            `applied at position ${applied.position}${applied.replayed ? ' (already applied: nothing appended)' : ''}`,
            `count check: the store shows ${applied.observed.quarantined} quarantined, ${
              Object.entries(applied.observed.retyped)
                .map(([k, n]) => `${n} retyped to ${k}`)
                .join(', ') || '0 retyped'
            } — as frozen`,
            `undo with: factledger triage rollback ${applied.batch} --tenant ${applied.tenant}`,
          ].join('\n'),
        );
      });
    });

  triage
    .command('rollback')
    .description('undo an applied triage batch by compensating events')
    .argument('<batch>', 'the batch label `apply` printed')
    .option('--tenant <tenant>', 'memory space', 'default')
    .action(async (batch: string, o: { tenant: string }) => {
      await withTriage(config, async (t, extra) => {
        const r = await t.rollback(o.tenant, batch);
        await extra.settle();
        console.log(`rolled back ${batch} at position ${r.position}: ${r.items.length} changes undone`);
      });
    });

  return triage;
}
