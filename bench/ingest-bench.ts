/**
 * The ingest benchmark (`npm run bench:ingest`): raw chat messages through MessageIngestor —
 * rule-based triage, extraction, admission gates, one atomic append of the admitted memories
 * and the decision record — beside a no-gate baseline (the same ingestor, a policy override
 * that switches every gate off), alternating in the same run, on the same backend.
 *
 * - messages/s one at a time and p50/p95/p99 per message; messages/s at concurrency 8;
 * - the split of a message's time: the pure domain functions (triageMessage, extractCandidates,
 *   similarityNeeded, admit) timed on their own over the same messages, the write
 *   (ledger.writeMany, timed inside the ingest), and the rest (input parsing, the similarity
 *   lookup in the cache and its cosines);
 * - the cost of resolution and frame alignment (restatement): the same gates with both off (a ledger
 *   with restatement off), a third path in the same rounds;
 * - native PostgreSQL (a database created and dropped on FL_PG_ADMIN_URL) and in-memory PGlite.
 *
 * The stream comes from FL_INGEST_BENCH_USERS users (50), each a tenant of its own per path and
 * phase, so the two paths never share a stream and each user's history stays plausible.
 *
 * Embedding is excluded: the similarity gate embeds a message's candidate text once its keyword
 * gate passes, so every such text of the stream (and the policy's examples) is embedded with the
 * real offline model before timing, into an in-memory cache that the timed calls hit; the bench
 * counts model calls while timed and reports them (0 expected).
 *
 *   npm run bench:ingest                                        both backends, ~1.5–3 min on 2 cores
 *   FL_INGEST_BENCH_BACKENDS=postgres npm run bench:ingest      one backend
 *   FL_INGEST_BENCH_MESSAGES=500 npm run bench:ingest           smoke run (figures not comparable)
 *
 * Other knobs: FL_INGEST_BENCH_CONCURRENT_MESSAGES (half the messages), _CONCURRENCY (8),
 * _WARMUP (200 per path), _USERS (50), _PROFILED (300), _DOMAIN_PASSES (5); FL_PG_ADMIN_URL.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { type AdmissionPolicy, admit, extractCandidates, ManualClock, similarityNeeded, triageMessage } from '@factledger/domain';
import { CachedEmbedder, cosineSimilarity, type Embedder, type Embedding, InMemoryEmbeddingCache, UseLiteEmbedder } from '@factledger/embeddings';
import { AdmissionPolicies, type AdmissionPolicyFile, type IngestResult, type Ledger, ledgerOn, MessageIngestor } from '@factledger/ledger';
import type { Backend } from '@factledger/store';
import { createTestDatabase } from '@factledger/testing';
import { sql } from 'kysely';
import { QueryProfiler, type ProfileReport } from './profile';
import { fmtInt, fmtMs, type LatencySummary, loadSampler, msSince, Rng, round, summarize, tick } from './stats';

process.env.FL_PG_ADMIN_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const env = process.env;
const MESSAGES = Number(env.FL_INGEST_BENCH_MESSAGES ?? 2000);
const CONCURRENT_MESSAGES = Number(env.FL_INGEST_BENCH_CONCURRENT_MESSAGES ?? Math.round(MESSAGES / 2));
const CONCURRENCY = Number(env.FL_INGEST_BENCH_CONCURRENCY ?? 8);
const WARMUP = Number(env.FL_INGEST_BENCH_WARMUP ?? 200);
const DOMAIN_PASSES = Number(env.FL_INGEST_BENCH_DOMAIN_PASSES ?? 5);
const PROFILED = Number(env.FL_INGEST_BENCH_PROFILED ?? 300);
/**
 * Users the stream is spread over, one tenant each (per path and phase): a user's own facts
 * ("I moved to …") share one key, and a write reads and folds its key's whole stream, so a
 * single tenant taking thousands of messages would measure one user moving house hundreds of
 * times. FL_INGEST_BENCH_USERS=1 measures exactly that.
 */
const USERS = Math.max(1, Number(env.FL_INGEST_BENCH_USERS ?? 50));
const BACKENDS = (env.FL_INGEST_BENCH_BACKENDS ?? 'postgres,pglite').split(',').map((s) => s.trim()) as Backend[];
const SEED = 20261201;
/** Messages per round: the two paths take turns every round, so drift (load, table growth) hits both alike. */
const ROUND = 100;
const TARGET = { messagesPerSec: 300, p99Ms: 20 };
const log = (m: string): void => void process.stderr.write(`${m}\n`);

// ---- the message stream ---------------------------------------------------------------------

const FIRST = ['Minji', 'Jisoo', 'Hana', 'Seojun', 'Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kenji', 'Lena', 'Marta', 'Nils'];
const LAST = ['Kim', 'Lee', 'Park', 'Choi', 'Silva', 'Costa', 'Weber', 'Novak', 'Rossi', 'Garcia', 'Tanaka', 'Jensen'];
const CITIES = ['Lisbon', 'Berlin', 'Seoul', 'Busan', 'Osaka', 'Toronto', 'Porto', 'Vienna', 'Prague', 'Denver', 'Austin', 'Dublin', 'Oslo', 'Madrid'];
const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella Labs', 'Hooli', 'Stark Industries', 'Wayne Logistics', 'Kakao', 'Naver', 'Soylent'];
const SERVICES = ['payment', 'billing', 'search', 'checkout', 'auth', 'catalog', 'shipping', 'invoice', 'profile', 'notification'];
const DOMAINS = ['mail', 'inbox', 'post', 'letters'];
const WHEN = ['last week', 'yesterday', 'this month', '3 days ago', 'last month', ''];
const KO_CITIES = ['서울', '부산', '대전', '대구', '인천', '광주', '제주', '수원', '판교', '강릉', '전주', '울산'];
const KO_SERVICES = ['결제', '정산', '검색', '주문', '인증', '배송', '알림', '회원'];
const KO_COMPANIES = ['카카오', '네이버', '삼성전자', '쿠팡', '라인', '토스', '배민'];
const KO_WHEN = ['이번 주에', '지난주에', '어제', '오늘', ''];
const FOODS = ['spicy ramen', 'sourdough bread', 'green tea', 'dark chocolate', 'mango sticky rice', 'black coffee', 'kimchi stew'];
const COLOURS = ['green', 'navy blue', 'orange', 'purple', 'teal', 'yellow'];
const GIFTS = ['watch', 'scarf', 'fountain pen', 'camera', 'bike helmet', 'record player'];
const RACES = ['marathon', 'half marathon', 'triathlon', '10k race', 'ultramarathon'];
const UNIS = ['Seoul National University', 'the University of Porto', 'TU Wien', 'Trinity College', 'KAIST'];
const PROSE = [
  'The migration took most of the afternoon because the staging cluster kept timing out.',
  'We rolled back twice before anyone noticed that the certificate had expired.',
  'Tomorrow I want to write a checklist so that it does not happen again.',
  'The weather was awful, so we stayed in and played board games until midnight.',
  'My neighbour keeps practising the trumpet at seven in the morning, which is a lot.',
  'The new café around the corner does a decent flat white but the chairs are terrible.',
  'I spent the weekend reorganising the garage and found my old tennis racket.',
  'The flight was delayed by three hours and the lounge had run out of sandwiches.',
  'Our team retro went better than expected; people actually said what bothered them.',
  'I have been reading a long novel about a lighthouse keeper and his stubborn cat.',
  'The train to the coast is slower than the bus but the view makes up for it.',
  'Honestly the hardest part of the project is agreeing on what done means.',
];

type Category = 'fact-en' | 'fact-ko' | 'restated' | 'dependent' | 'milestone' | 'milestone-like' | 'question' | 'chit-chat' | 'role-play' | 'long prose';

interface BenchMessage {
  category: Category;
  text: string;
  /** Whose message: the tenant it goes to (`tenantOf`). */
  user: number;
}

/** The Korean directional particle: 로 after a vowel or ㄹ, 으로 after any other final consonant. */
function ro(word: string): string {
  const code = word.charCodeAt(word.length - 1) - 0xac00;
  const final = code >= 0 && code < 11172 ? code % 28 : 0;
  return final === 0 || final === 8 ? `${word}로` : `${word}으로`;
}

const personName = (r: Rng): string => `${r.pick(FIRST)} ${r.pick(LAST)}`;
const email = (r: Rng): string => `${r.pick(FIRST).toLowerCase()}.${r.pick(LAST).toLowerCase()}${r.int(100)}@${r.pick(DOMAINS)}.example`;
const phone = (r: Rng): string => `010-${1000 + r.int(9000)}-${1000 + r.int(9000)}`;
const withWhen = (s: string, when: string): string => (when ? `${s} ${when}.` : `${s}.`);

/** Each generator draws a message of its kind; values vary so that keys differ and some supersede. */
const GENERATORS: Record<Category, (r: Rng) => string> = {
  'fact-en': (r) => {
    const pick = r.int(10);
    if (pick === 0) return withWhen(`I moved to ${r.pick(CITIES)}`, r.pick(WHEN));
    if (pick === 1) return `My email address is now ${email(r)}.`;
    if (pick === 2) return r.chance(0.5) ? `I work at ${r.pick(COMPANIES)}.` : `I started working at ${r.pick(COMPANIES)} last month.`;
    if (pick === 3) return `The ${r.pick(SERVICES)} service port is set to ${r.pick([8000, 8080, 8443, 9000, 3000 + r.int(1000)])}.`;
    if (pick === 4) return `The ${r.pick(SERVICES)} service timeout is set to ${r.pick([5, 10, 30, 60])} seconds.`;
    if (pick === 5) return `${personName(r)}'s phone number is now ${phone(r)}.`;
    if (pick === 6) return `The ${r.pick(SERVICES)} database moved to host db-${String(r.int(40)).padStart(2, '0')}.internal.`;
    if (pick === 7) return `My favourite colour is ${r.pick(COLOURS)}.`;
    if (pick === 8) return `I like ${r.pick(FOODS)}.`;
    // A statement and a question in one message: informing, for the statement only.
    return `I moved to ${r.pick(CITIES)} last week. Do you know any good cafés there?`;
  },
  'fact-ko': (r) => {
    const pick = r.int(5);
    if (pick === 0) return `${r.pick(KO_SERVICES)} 서비스 포트는 ${r.pick([8000, 8080, 8443, 9000])}이야`;
    if (pick === 1) return `나 ${r.pick(KO_WHEN)} ${ro(r.pick(KO_CITIES))} 이사했어.`.replace(/\s+/g, ' ');
    if (pick === 2) return `내 이메일 주소는 ${email(r)}이야`;
    if (pick === 3) return `요즘 ${r.pick(KO_COMPANIES)}에서 일해.`;
    return `나 ${r.pick(KO_CITIES)}에 살아.`;
  },
  // Third-person statements said again with another value: what frame alignment replaces.
  restated: (r) => {
    const pick = r.int(4);
    if (pick === 0) return `The ${r.pick(SERVICES)} service runs on host-${r.int(12)}.internal.`;
    if (pick === 1) return `The owner of the ${r.pick(SERVICES)} repository is ${personName(r)}.`;
    if (pick === 2) return `The ${r.pick(SERVICES)} team sits on the ${2 + r.int(8)}th floor.`;
    return `${r.pick(KO_SERVICES)} 담당자는 ${r.pick(['김민수', '이지은', '박서준', '최유나'])}입니다.`;
  },
  // Memories that hang on memories (docs/dependencies.md): a lead that changes, rules for later, assignments that hang on the lead.
  dependent: (r) => {
    const pick = r.int(5);
    const lead = r.pick(['team lead', 'project manager', 'head of operations']);
    if (pick === 0) return `${personName(r)} is our new ${lead}.`;
    if (pick === 1) return `If the ${lead} changes, the ${r.pick(SERVICES)} on-call will be ${personName(r)}.`;
    if (pick === 2) return `The ${r.pick(SERVICES)} code review goes to ${personName(r)}; ${personName(r)} assigned it, and if the ${lead} changes, this would change.`;
    if (pick === 3) return `Whenever the ${lead} changes, the ${r.pick(SERVICES)} report goes to ${personName(r)}.`;
    return `팀장이 바뀌면 ${r.pick(KO_SERVICES)} 보고서는 ${r.pick(['김민수', '이지은', '박서준', '최유나'])}에게 갈 거야.`;
  },
  milestone: (r) => {
    const pick = r.int(8);
    if (pick === 0) return `I got the job offer from the ${r.pick(CITIES)} office today!`;
    if (pick === 1) return `I finally finished my first ${r.pick(RACES)} today!`;
    if (pick === 2) return `I just got promoted at ${r.pick(COMPANIES)}.`;
    if (pick === 3) return `My sister gave me a ${r.pick(GIFTS)} for my birthday.`;
    if (pick === 4) return `I graduated from ${r.pick(UNIS)} today.`;
    if (pick === 5) return `We got engaged last night in ${r.pick(CITIES)}!`;
    if (pick === 6) return `드디어 오늘 ${r.pick(KO_COMPANIES)} 최종 합격했어!`;
    return `I won first place in the ${r.pick(CITIES)} chess open!`;
  },
  // Cue words that propose a high-importance label, without what its gates ask for.
  'milestone-like': (r) => {
    const pick = r.int(6);
    if (pick === 0) return `I finally got my coffee today, and it was cold again.`;
    if (pick === 1) return `Today was a special day at the ${r.pick(['park', 'beach', 'lake', 'market'])} with the dog.`;
    if (pick === 2) return `I won the argument about tabs versus spaces with ${r.pick(FIRST)}.`;
    if (pick === 3) return `We finally finished painting the ${r.pick(['kitchen', 'hallway', 'fence', 'bedroom'])} this weekend.`;
    if (pick === 4) return `I always forget my umbrella on rainy days.`;
    return `The first snow of the year fell on ${r.pick(CITIES)} today.`;
  },
  question: (r) =>
    r.pick([
      'Where do I live?',
      "What's my email address?",
      `Which port does the ${r.pick(SERVICES)} service use?`,
      '내 이메일 주소 뭐였지?',
      '나 어디 살지?',
      'Do you remember where I work?',
      `What is ${r.pick(FIRST)}'s phone number?`,
      '결제 서비스 포트 몇 번이야?',
    ]),
  'chit-chat': (r) => r.pick(['haha ok', 'Thanks, that fixed it!', 'ok', 'lol nice', 'good night', 'ㅋㅋ 고마워', 'Sounds good.', 'Hmm, ok.', 'Cool, thanks!', 'yep']),
  'role-play': (r) =>
    r.pick(['*smiles softly and leans closer*', '*laughs* *nods*', 'She smiles and looks away.', '*sighs and stares out the window*', 'He leaned against the door.', '*grins* *waves*']),
  'long prose': (r) => {
    const n = 3 + r.int(4);
    const out: string[] = [];
    while (out.length < n) {
      const s = r.pick(PROSE);
      if (!out.includes(s)) out.push(s);
    }
    return out.join(' ');
  },
};

const MIX: [Category, number][] = [
  ['fact-en', 0.24],
  ['fact-ko', 0.12],
  ['restated', 0.06],
  ['dependent', 0.06],
  ['milestone', 0.08],
  ['milestone-like', 0.06],
  ['question', 0.12],
  ['chit-chat', 0.1],
  ['role-play', 0.06],
  ['long prose', 0.1],
];

function messageStream(rng: Rng, n: number): BenchMessage[] {
  return Array.from({ length: n }, (_, i) => {
    let x = rng.next();
    const category = MIX.find(([, weight]) => (x -= weight) < 0)?.[0] ?? 'fact-en';
    return { category, text: GENERATORS[category](rng), user: i % USERS };
  });
}

// ---- the two paths --------------------------------------------------------------------------

/** Outcomes that append no event to the memory's stream. */
const NO_EVENT = new Set(['duplicate', 'unchanged']);

/** gated: the default (gates, resolution, frame alignment); unresolved: the same gates without resolution or alignment; baseline: none of them. */
type Path = 'gated' | 'unresolved' | 'baseline';
const PATHS: Path[] = ['gated', 'unresolved', 'baseline'];
const PHASES = ['warm', 'seq', 'c', 'prof'] as const;
type Phase = (typeof PHASES)[number];
const tenantOf = (path: Path, phase: Phase, user: number): string => `${phase}-${path}-u${user}`;

/** Every gate off: no role-play guard, no chit-chat filter, no content-word floor, no keyword or similarity gate. */
const NO_GATES: NonNullable<AdmissionPolicyFile['default']> = {
  roleplayGuard: false,
  chitchat: { enabled: false },
  minContentWords: 0,
  // requiredKeywords [] and minSimilarity null for each built-in type (milestone, achievement, gift).
  types: Object.fromEntries(['milestone', 'achievement', 'gift'].map((t) => [t, { requiredKeywords: [], minSimilarity: null }])),
};

/** The baseline's tenants get the override; the gated tenants keep the built-in defaults. One ingestor serves both. */
const POLICIES = new AdmissionPolicies(
  { tenants: Object.fromEntries(PHASES.flatMap((phase) => Array.from({ length: USERS }, (_, u) => [tenantOf('baseline', phase, u), NO_GATES]))) },
  'bench: defaults; no gates for *-baseline-*',
);

/** Counts the texts that reach the model: while timed, every lookup should be a cache hit. */
class CountingEmbedder implements Embedder {
  texts = 0;
  constructor(private readonly inner: Embedder) {}
  get model(): string {
    return this.inner.model;
  }
  get dimensions(): number {
    return this.inner.dimensions;
  }
  embed(texts: string[]): Promise<Embedding[]> {
    this.texts += texts.length;
    return this.inner.embed(texts);
  }
}

/** Where the write's own time goes: the ledger with `writeMany` timed into the current sink. */
function timedLedger(ledger: Ledger, sink: { current: number[] | null }): Ledger {
  return new Proxy(ledger, {
    get(target, prop) {
      if (prop === 'writeMany') {
        return async (...args: Parameters<Ledger['writeMany']>) => {
          const t = tick();
          try {
            return await target.writeMany(...args);
          } finally {
            sink.current?.push(msSince(t));
          }
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

interface Tally {
  messages: number;
  asked: number;
  /** Candidates written to the ledger (admitted or retyped), whatever the write's outcome. */
  written: number;
  /** Distinct memories the messages' content is now in (new versions or confirmations). */
  memoriesStored: number;
  verdicts: Record<string, number>;
  outcomes: Record<string, number>;
  /** Earlier memories resolution retired, and resembling ones it kept as unsure; the first few retirements, to read. */
  retired: number;
  keptUnsure: number;
  retiredSamples: { earlier: string; now: string; rule: string }[];
}

const newTally = (): Tally => ({
  messages: 0,
  asked: 0,
  written: 0,
  memoriesStored: 0,
  verdicts: { admitted: 0, retyped: 0, rejected: 0 },
  outcomes: {},
  retired: 0,
  keptUnsure: 0,
  retiredSamples: [],
});

function count(t: Tally, r: IngestResult): void {
  t.messages++;
  if (r.kind === 'ask') t.asked++;
  t.memoriesStored += r.stored.length;
  t.retired += r.resolved.retired;
  t.keptUnsure += r.resolved.keptUnsure;
  for (const c of r.candidates) {
    for (const x of c.resolution ?? []) if (x.effect !== 'kept' && t.retiredSamples.length < 12) t.retiredSamples.push({ earlier: x.text, now: c.text, rule: x.rule });
  }
  for (const c of r.candidates) {
    t.verdicts[c.verdict] = (t.verdicts[c.verdict] ?? 0) + 1;
    if (c.outcome) {
      t.written++;
      t.outcomes[c.outcome] = (t.outcomes[c.outcome] ?? 0) + 1;
    }
  }
}

// ---- the pure domain pass -------------------------------------------------------------------

interface Prepared {
  text: string;
  /** Cosine to each type's examples, as the ingestor would compute it (from the cached vectors). */
  similarity: Map<string, number>;
}

/** The text the ingestor embeds for a message under a policy, or null when no similarity gate is asked for. */
function gateText(text: string, policy: AdmissionPolicy, at: Date): { text: string; types: string[] } | null {
  const triage = triageMessage(text);
  if (triage.kind === 'ask' || triage.language !== 'en') return null; // the offline model is English only
  const cues = Object.fromEntries(Object.entries(policy.types).map(([type, tp]) => [type, tp.cues]));
  const candidates = extractCandidates({ text, speaker: 'user', at, triage, cues });
  const types = similarityNeeded(candidates, policy, triage.language);
  return types.length ? { text: candidates.map((c) => c.text).join(' '), types } : null;
}

async function prepare(messages: BenchMessage[], policy: AdmissionPolicy, embedder: Embedder, at: Date): Promise<Prepared[]> {
  const examples = new Map<string, Embedding[]>();
  for (const [type, tp] of Object.entries(policy.types)) if (tp.examples.length) examples.set(type, await embedder.embed(tp.examples));
  const out: Prepared[] = [];
  for (const m of messages) {
    const g = gateText(m.text, policy, at);
    const similarity = new Map<string, number>();
    if (g) {
      const [v] = await embedder.embed([g.text]);
      for (const type of g.types) similarity.set(type, Math.max(...examples.get(type)!.map((e) => cosineSimilarity(v!, e))));
    }
    out.push({ text: m.text, similarity });
  }
  return out;
}

/**
 * triageMessage → extractCandidates → similarityNeeded → admit, per message, nothing else. The
 * admitted count is returned so that the decisions are used (and checked against the ingests).
 */
function domainPass(prepared: Prepared[], policy: AdmissionPolicy, at: Date): { samples: number[]; admitted: number } {
  const cues = Object.fromEntries(Object.entries(policy.types).map(([type, tp]) => [type, tp.cues]));
  const samples: number[] = [];
  let admitted = 0;
  for (const p of prepared) {
    const t = tick();
    const triage = triageMessage(p.text);
    const candidates = triage.kind === 'ask' ? [] : extractCandidates({ text: p.text, speaker: 'user', at, triage, cues });
    similarityNeeded(candidates, policy, triage.language);
    const decisions = admit({ candidates, policy, language: triage.language, similarity: (type) => p.similarity.get(type) ?? null });
    samples.push(msSince(t));
    for (const d of decisions) if (d.type !== null) admitted++;
  }
  return { samples, admitted };
}

// ---- one backend ----------------------------------------------------------------------------

interface PathResult {
  /** `drift`: mean latency of the first and the last round, as the tenant's streams grow. */
  sequential: { n: number; messagesPerSec: number; latency: LatencySummary; drift: { firstRoundMeanMs: number; lastRoundMeanMs: number } };
  concurrent: { n: number; concurrency: number; messagesPerSec: number; latency: LatencySummary; errors: number; firstError?: string };
  split: {
    ingestMeanMs: number;
    domainMeanMs: number;
    domainP99Ms: number;
    /** Candidates the pure pass admits over the timed messages: equals the ingests' admitted + retyped. */
    domainAdmitted: number;
    writeMeanMs: number;
    /** The write of a message whose append carries no memory event (only its record) beside one that does. */
    writeMeanMsRecordOnly: number;
    writeMeanMsWithMemories: number;
    recordOnlyShare: number;
    restMeanMs: number;
    domainShare: number;
    writeShare: number;
    restShare: number;
  };
  outcomes: Tally;
}

interface BackendResult {
  backend: Backend;
  server: string;
  settings: Record<string, string>;
  paths: Record<Path, PathResult>;
  gatedOverBaseline: { sequentialRate: number; p99: number; concurrentRate: number };
  /** The default path beside the same gates without resolution: rate ratio, added p50 (ms), p99 ratio, retirements. */
  resolutionCost: { sequentialRate: number; p50: number; p99: number; retiredPer100: number };
  similarity: { gatedMessagesEmbedded: number; modelTextsWhileTimed: number };
  /** A separate profiled pass of the gated path (not part of the figures): the message's time by statement kind. */
  profile: ProfileReport;
  runtimeMs: number;
  /** 1-minute load average sampled every 2 s (on 2 cores, above 2 means other work competed for the CPU). */
  loadAverage: { min: number; mean: number; max: number };
}

async function runBackend(backend: Backend, messages: BenchMessage[], embedder: CachedEmbedder, counter: CountingEmbedder): Promise<BackendResult> {
  const started = tick();
  const load = loadSampler();
  const database = await createTestDatabase(backend);
  try {
    const clock = new ManualClock(new Date('2026-07-01T00:00:00Z'));
    const handle = ledgerOn(database, { clock });
    const sink: { current: number[] | null } = { current: null };
    const ingestor = new MessageIngestor({ ledger: timedLedger(handle.ledger, sink), store: handle.store, clock, policies: POLICIES, embedder, embedderLanguages: ['en'] });
    // The other paths: neither resolution nor frame alignment (a ledger with restatement off, on the same database).
    const plain = ledgerOn(database, { clock, restatement: false });
    const withoutResolution = new MessageIngestor({ ledger: timedLedger(plain.ledger, sink), store: plain.store, clock, policies: POLICIES, embedder, embedderLanguages: ['en'], resolution: false });
    const server = (await sql<{ v: string }>`SELECT version() AS v`.execute(database.db)).rows[0]!.v.split(',')[0]!;
    const settings = Object.fromEntries(
      (await sql<{ name: string; setting: string }>`SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit')`.execute(database.db)).rows.map((r) => [r.name, r.setting]),
    );
    log(`[${backend}] ${server} — database ${database.name}`);
    const ingest = async (path: Path, phase: Phase, m: BenchMessage): Promise<IngestResult> => {
      clock.advance(20_000);
      return (path === 'gated' ? ingestor : withoutResolution).ingest(tenantOf(path, phase, m.user), { text: m.text });
    };

    // Warm-up (JIT, connection pool, plans) on tenants of its own, untimed.
    for (let i = 0; i < WARMUP; i++) for (const path of PATHS) await ingest(path, 'warm', messages[i % messages.length]!);
    // Statistics for the tables the warm-up started, as autovacuum would give them within a
    // minute: plpgsql caches a generic plan per statement, and one planned over empty tables
    // scans them whole for every message until the next ANALYZE replaces it.
    await sql`ANALYZE`.execute(database.db);
    const modelTextsBefore = counter.texts;

    // Sequential: rounds of ROUND messages, the paths taking turns and swapping who goes first.
    log(`[${backend}] sequential: ${fmtInt(MESSAGES)} messages per path, alternating rounds of ${ROUND}`);
    const seq = { gated: [] as number[], unresolved: [] as number[], baseline: [] as number[] };
    const seqWall = { gated: 0, unresolved: 0, baseline: 0 };
    const writes = { gated: [] as number[], unresolved: [] as number[], baseline: [] as number[] };
    const recordOnly = { gated: [] as boolean[], unresolved: [] as boolean[], baseline: [] as boolean[] };
    const tallies = { gated: newTally(), unresolved: newTally(), baseline: newTally() };
    for (let start = 0, round = 0; start < MESSAGES; start += ROUND, round++) {
      const batch = messages.slice(start, Math.min(MESSAGES, start + ROUND));
      for (const path of round % 2 ? [...PATHS].reverse() : PATHS) {
        const r0 = tick();
        for (const m of batch) {
          sink.current = writes[path];
          const t = tick();
          const r = await ingest(path, 'seq', m);
          seq[path].push(msSince(t));
          count(tallies[path], r);
          recordOnly[path].push(!r.candidates.some((c) => c.outcome && !NO_EVENT.has(c.outcome)));
        }
        seqWall[path] += msSince(r0);
      }
    }
    sink.current = null;

    // Concurrency: CONCURRENCY workers drain one round at a time; the paths take turns per round.
    log(`[${backend}] concurrency ${CONCURRENCY}: ${fmtInt(CONCURRENT_MESSAGES)} messages per path`);
    const conc = { gated: [] as number[], unresolved: [] as number[], baseline: [] as number[] };
    const concWall = { gated: 0, unresolved: 0, baseline: 0 };
    const concErrors = { gated: 0, unresolved: 0, baseline: 0 };
    const concFirstError: Partial<Record<Path, string>> = {};
    const CROUND = ROUND * 2;
    for (let start = 0, round = 0; start < CONCURRENT_MESSAGES; start += CROUND, round++) {
      const batch = Array.from({ length: Math.min(CROUND, CONCURRENT_MESSAGES - start) }, (_, i) => messages[(start + i) % messages.length]!);
      for (const path of round % 2 ? [...PATHS].reverse() : PATHS) {
        let next = 0;
        const worker = async (): Promise<void> => {
          while (next < batch.length) {
            const m = batch[next++]!;
            const t = tick();
            try {
              await ingest(path, 'c', m);
              conc[path].push(msSince(t));
            } catch (error) {
              // Concurrent messages about one key can exhaust the ledger's conflict retries: counted, not fatal.
              concErrors[path]++;
              concFirstError[path] ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error);
            }
          }
        };
        const r0 = tick();
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        concWall[path] += msSince(r0);
      }
    }
    const modelTextsWhileTimed = counter.texts - modelTextsBefore;

    // The pure domain functions over the same messages, per policy; the first pass warms up.
    log(`[${backend}] pure triage/extraction/admission: ${DOMAIN_PASSES} passes over ${fmtInt(MESSAGES)} messages per policy`);
    const timed = messages.slice(0, MESSAGES);
    const domain = { gated: [] as number[], unresolved: [] as number[], baseline: [] as number[] };
    const domainAdmitted = { gated: 0, unresolved: 0, baseline: 0 };
    let gatedMessagesEmbedded = 0;
    for (const path of PATHS) {
      const policy = ingestor.policyFor(tenantOf(path, 'seq', 0));
      const prepared = await prepare(timed, policy, embedder, clock.now());
      if (path === 'gated') gatedMessagesEmbedded = prepared.filter((p) => p.similarity.size > 0).length;
      domainAdmitted[path] = domainPass(prepared, policy, clock.now()).admitted;
      for (let pass = 1; pass < DOMAIN_PASSES; pass++) domain[path].push(...domainPass(prepared, policy, clock.now()).samples);
    }

    // Where a message's time goes, by statement, on a tenant of its own (the profiler's wrapping costs a little).
    log(`[${backend}] profiled pass: ${fmtInt(PROFILED)} messages, gated path`);
    const profiler = new QueryProfiler();
    profiler.start();
    for (let i = 0; i < PROFILED; i++) await ingest('gated', 'prof', messages[i % messages.length]!);
    const profile = profiler.stop(PROFILED);

    const paths = {} as Record<Path, PathResult>;
    for (const path of PATHS) {
      const ingestMean = seqWall[path] / seq[path].length;
      const d = summarize(domain[path]);
      const w = summarize(writes[path]);
      const rest = Math.max(0, ingestMean - d.mean - w.mean);
      const only = summarize(writes[path].filter((_, i) => recordOnly[path][i]));
      const withMemories = summarize(writes[path].filter((_, i) => !recordOnly[path][i]));
      paths[path] = {
        sequential: {
          n: seq[path].length,
          messagesPerSec: Math.round((seq[path].length / seqWall[path]) * 1000),
          latency: summarize(seq[path]),
          drift: { firstRoundMeanMs: summarize(seq[path].slice(0, ROUND)).mean, lastRoundMeanMs: summarize(seq[path].slice(-ROUND)).mean },
        },
        concurrent: {
          n: conc[path].length,
          concurrency: CONCURRENCY,
          messagesPerSec: Math.round((conc[path].length / concWall[path]) * 1000),
          latency: summarize(conc[path]),
          errors: concErrors[path],
          ...(concFirstError[path] ? { firstError: concFirstError[path] } : {}),
        },
        split: {
          ingestMeanMs: round(ingestMean),
          domainMeanMs: d.mean,
          domainP99Ms: d.p99,
          domainAdmitted: domainAdmitted[path],
          writeMeanMs: w.mean,
          writeMeanMsRecordOnly: only.mean,
          writeMeanMsWithMemories: withMemories.mean,
          recordOnlyShare: round(only.n / w.n, 3),
          restMeanMs: round(rest),
          domainShare: round(d.mean / ingestMean, 3),
          writeShare: round(w.mean / ingestMean, 3),
          restShare: round(rest / ingestMean, 3),
        },
        outcomes: tallies[path],
      };
    }
    const g = paths.gated;
    const b = paths.baseline;
    const u = paths.unresolved;
    return {
      backend,
      server,
      settings,
      paths,
      gatedOverBaseline: {
        sequentialRate: round(g.sequential.messagesPerSec / b.sequential.messagesPerSec, 2),
        p99: round(g.sequential.latency.p99 / b.sequential.latency.p99, 2),
        concurrentRate: round(g.concurrent.messagesPerSec / b.concurrent.messagesPerSec, 2),
      },
      resolutionCost: {
        sequentialRate: round(g.sequential.messagesPerSec / u.sequential.messagesPerSec, 2),
        p50: round(g.sequential.latency.p50 - u.sequential.latency.p50, 3),
        p99: round(g.sequential.latency.p99 / u.sequential.latency.p99, 2),
        retiredPer100: round((100 * g.outcomes.retired) / g.outcomes.messages, 1),
      },
      similarity: { gatedMessagesEmbedded, modelTextsWhileTimed },
      profile,
      runtimeMs: Math.round(msSince(started)),
      loadAverage: load.stop(),
    };
  } finally {
    await database.close().catch(() => undefined);
  }
}

// ---- report ---------------------------------------------------------------------------------

const mark = (met: boolean): string => (met ? '✅' : '❌');
const lat = (s: LatencySummary): string => `${fmtMs(s.p50)} / ${fmtMs(s.p95)} / ${fmtMs(s.p99)} ms`;
const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;
const split = (s: PathResult['split']): string =>
  `${fmtMs(s.domainMeanMs)} ms (${pct(s.domainShare)}) / ${fmtMs(s.writeMeanMs)} ms (${pct(s.writeShare)}) / ${fmtMs(s.restMeanMs)} ms (${pct(s.restShare)})`;
const per100 = (t: Tally): string => `${((t.written / t.messages) * 100).toFixed(0)} (${t.verdicts.rejected ?? 0} candidates rejected, ${t.verdicts.retyped ?? 0} retyped)`;

function markdownTable(results: BackendResult[]): string {
  const rows: string[][] = [];
  for (const r of results) {
    const name = r.backend === 'postgres' ? 'Native PG' : 'PGlite';
    const g = r.paths.gated;
    const b = r.paths.baseline;
    const u = r.paths.unresolved;
    const c = (p: PathResult): string => `${fmtInt(p.concurrent.messagesPerSec)} messages/s${p.concurrent.errors ? ` (${p.concurrent.errors} failed)` : ''}`;
    rows.push([
      `${name}: resolution and frame alignment on ÷ off (same gates), one at a time`,
      `${fmtInt(g.sequential.messagesPerSec)} messages/s, p99 ${fmtMs(g.sequential.latency.p99)} ms`,
      `off: ${fmtInt(u.sequential.messagesPerSec)} messages/s, p99 ${fmtMs(u.sequential.latency.p99)} ms`,
      `${r.resolutionCost.sequentialRate.toFixed(2)}× rate, +${fmtMs(r.resolutionCost.p50)} ms at p50; ${r.resolutionCost.retiredPer100} retired per 100 messages`,
      'reported',
      '—',
    ]);
    rows.push(
      [
        `${name}: one at a time, n=${fmtInt(g.sequential.n)}`,
        `${fmtInt(g.sequential.messagesPerSec)} messages/s`,
        `${fmtInt(b.sequential.messagesPerSec)} messages/s`,
        `${r.gatedOverBaseline.sequentialRate.toFixed(2)}×`,
        `≥ ${TARGET.messagesPerSec} messages/s`,
        mark(g.sequential.messagesPerSec >= TARGET.messagesPerSec),
      ],
      [
        `${name}: latency per message, p50/p95/p99`,
        lat(g.sequential.latency),
        lat(b.sequential.latency),
        `${r.gatedOverBaseline.p99.toFixed(2)}× at p99`,
        `p99 ≤ ${TARGET.p99Ms} ms`,
        mark(g.sequential.latency.p99 <= TARGET.p99Ms),
      ],
      [`${name}: concurrency ${g.concurrent.concurrency}, n=${fmtInt(g.concurrent.n)}`, c(g), c(b), `${r.gatedOverBaseline.concurrentRate.toFixed(2)}×`, 'reported', '—'],
      [`${name}: per message, pure triage+extraction+admission / write / rest`, split(g.split), split(b.split), '—', 'reported', '—'],
      [`${name}: candidates written per 100 messages`, per100(g.outcomes), per100(b.outcomes), '—', 'reported', '—'],
    );
  }
  const head = '| measure | rule-based gates (default policy) | no-gate baseline | gated ÷ baseline | target | met? |\n|---|---|---|---|---|---|';
  return `${head}\n${rows.map((cols) => `| ${cols.join(' | ')} |`).join('\n')}`;
}

async function main(): Promise<void> {
  const started = tick();
  const rng = new Rng(SEED);
  const messages = messageStream(rng, Math.max(MESSAGES, WARMUP));
  log(`[ingest] spread over ${USERS} users: a fresh tenant per user, per path and per phase`);
  const mix = Object.fromEntries(MIX.map(([c]) => [c, messages.slice(0, MESSAGES).filter((m) => m.category === c).length]));
  log(
    `[ingest] ${fmtInt(MESSAGES)} messages (seed ${SEED}): ${Object.entries(mix)
      .map(([c, n]) => `${c} ${n}`)
      .join(', ')}`,
  );

  // Embedding excluded: every text a similarity gate will ask for is embedded now, into the cache.
  const counter = new CountingEmbedder(new UseLiteEmbedder({ maxBatchSize: 128, backgroundChunk: 128 }));
  const cache = new InMemoryEmbeddingCache({ maxEntries: 100_000 });
  const embedder = new CachedEmbedder(counter, cache);
  const gatedPolicy = POLICIES.for(tenantOf('gated', 'seq', 0));
  const at = new Date('2026-07-01T00:00:00Z');
  const texts = new Set<string>();
  for (const tp of Object.values(gatedPolicy.types)) tp.examples.forEach((e) => texts.add(e));
  for (const m of messages) {
    const g = gateText(m.text, gatedPolicy, at);
    if (g) texts.add(g.text);
  }
  let t0 = tick();
  await embedder.embed([...texts]);
  const prewarm = { texts: texts.size, ms: Math.round(msSince(t0)), model: embedder.model };
  log(`[ingest] pre-embedded ${fmtInt(prewarm.texts)} distinct gate texts and policy examples with ${prewarm.model} in ${fmtInt(prewarm.ms)} ms (in-memory cache; timed calls hit it)`);

  const results: BackendResult[] = [];
  const errors: Partial<Record<Backend, string>> = {};
  for (const backend of BACKENDS) {
    t0 = tick();
    try {
      const r = await runBackend(backend, messages, embedder, counter);
      results.push(r);
      for (const path of PATHS) {
        const p = r.paths[path];
        log(
          `  ${path.padEnd(8)} ${fmtInt(p.sequential.messagesPerSec)} msg/s, p50/p95/p99 ${lat(p.sequential.latency)}; c${CONCURRENCY} ${fmtInt(p.concurrent.messagesPerSec)} msg/s` +
            `${p.concurrent.errors ? ` (${p.concurrent.errors} failed)` : ''}; domain ${fmtMs(p.split.domainMeanMs)} ms, write ${fmtMs(p.split.writeMeanMs)} ms ` +
            `(record only ${fmtMs(p.split.writeMeanMsRecordOnly)} ms for ${pct(p.split.recordOnlyShare)} of messages, with memories ${fmtMs(p.split.writeMeanMsWithMemories)} ms), rest ${fmtMs(p.split.restMeanMs)} ms`,
        );
      }
      log(`  model calls while timed: ${r.similarity.modelTextsWhileTimed} texts; load average ${r.loadAverage.mean} (${r.loadAverage.min}–${r.loadAverage.max}); ${fmtInt(msSince(t0) / 1000)} s`);
      const p = r.profile;
      log(`  profiled gated pass: ${p.wallMsPerUnit} ms per message = ${p.dbBusyMsPerUnit} ms waiting on queries + ${p.jsMsPerUnit} ms JavaScript/event loop`);
      for (const x of p.perUnit.filter((q) => q.ms >= 0.01).slice(0, 8)) log(`    ${x.kind.padEnd(40)} ${String(x.queries).padStart(5)} q ${x.ms.toFixed(3).padStart(8)} ms ${x.share.padStart(6)}`);
    } catch (error) {
      errors[backend] = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`[${backend}] FAILED: ${errors[backend]}`);
    }
  }
  const runtimeMs = Math.round(msSince(started));
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    nodeFlags: process.execArgv.join(' '),
    date: new Date().toISOString(),
  };
  const note =
    `_${machine.cpu}, ${machine.cpus} cores, Node ${machine.node}; ${fmtInt(MESSAGES)} mixed EN/KO chat messages from ${USERS} users, a fresh tenant each per path (seed ${SEED}), ` +
    `embedding excluded (${fmtInt(prewarm.texts)} gate texts pre-embedded into an in-memory cache; model calls while timed: ` +
    `${results.map((r) => `${r.backend} ${r.similarity.modelTextsWhileTimed}`).join(', ')}); 1-min load average ` +
    `${results.map((r) => `${r.backend} ${r.loadAverage.mean} (${r.loadAverage.min}–${r.loadAverage.max})`).join(', ')} on ${machine.cpus} cores; runtime ${fmtInt(runtimeMs / 1000)} s._`;
  const markdown = `${note}\n\n${markdownTable(results)}`;
  const dir = join(__dirname, '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'ingest.json'),
    `${JSON.stringify(
      {
        machine,
        sizes: {
          messages: MESSAGES,
          concurrentMessages: CONCURRENT_MESSAGES,
          concurrency: CONCURRENCY,
          warmup: WARMUP,
          round: ROUND,
          domainPasses: DOMAIN_PASSES,
          profiled: PROFILED,
          users: USERS,
          seed: SEED,
        },
        mix,
        targets: TARGET,
        noGatePolicy: NO_GATES,
        embedding: { ...prewarm, cache: 'InMemoryEmbeddingCache', excluded: true },
        results,
        errors,
        runtimeMs,
        markdown,
      },
      null,
      2,
    )}\n`,
  );
  console.log(markdown);
  log(`results: bench/results/ingest.json; runtime ${fmtInt(runtimeMs / 1000)} s`);
  if (Object.keys(errors).length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
