/**
 * Recall: a query with a budget and an as-of point; the context exactly as the model gets it; and
 * the stored trace as a funnel, every score named for what it is. A trace is its own page too.
 */
import { useState } from 'preact/hooks';
import { api, explain, tenantPath } from '../api';
import { Loaded, Problem, Time } from '../parts';
import { useRead } from '../read';
import { tenantHref } from '../router';
import type { Recalled, Trace } from '../types';

const num = (v: number | null | undefined, digits = 3): string => (v === null || v === undefined ? '—' : v.toFixed(digits));

export function RecallPage({ tenant }: { tenant: string }) {
  const [form, setForm] = useState({ query: '', budgetTokens: '400', validAt: '', knownAt: '' });
  const [result, setResult] = useState<{ state: 'idle' } | { state: 'loading' } | { state: 'done'; data: Recalled } | { state: 'failed'; message: string }>({ state: 'idle' });
  const field = (name: keyof typeof form) => (e: Event) => setForm({ ...form, [name]: (e.target as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    setResult({ state: 'loading' });
    try {
      const body = { query: form.query, budgetTokens: Number(form.budgetTokens), ...(form.validAt ? { validAt: form.validAt } : {}), ...(form.knownAt ? { knownAt: form.knownAt } : {}) };
      setResult({ state: 'done', data: await api<Recalled>(tenantPath(tenant, 'context'), { method: 'POST', body }) });
    } catch (err) {
      setResult({ state: 'failed', message: explain(err) });
    }
  };
  return (
    <section>
      <h2>Recall</h2>
      <form class="filters" onSubmit={submit}>
        <label class="wide">
          Query
          <input name="query" value={form.query} onInput={field('query')} required />
        </label>
        <label>
          Budget (tokens)
          <input name="budgetTokens" type="number" min={16} value={form.budgetTokens} onInput={field('budgetTokens')} />
        </label>
        <label>
          Valid at
          <input name="validAt" value={form.validAt} placeholder="now" onInput={field('validAt')} />
        </label>
        <label>
          Known at
          <input name="knownAt" value={form.knownAt} placeholder="now" onInput={field('knownAt')} />
        </label>
        <button type="submit">Recall</button>
      </form>
      {result.state === 'loading' && (
        <p class="state" role="status">
          Assembling…
        </p>
      )}
      <Problem message={result.state === 'failed' ? result.message : null} />
      {result.state === 'done' && (
        <>
          <h3>
            The context ({result.data.tokens} of {result.data.budgetTokens} tokens)
          </h3>
          <pre class="context">{result.data.text || '(empty: nothing relevant was found)'}</pre>
          <p>
            <a href={tenantHref(tenant, `/traces/${result.data.traceId}`)}>This assembly's trace, as a link</a>
          </p>
          <TraceFunnel tenant={tenant} id={result.data.traceId} />
        </>
      )}
    </section>
  );
}

export function TracePage({ tenant, id }: { tenant: string; id: string }) {
  return (
    <section>
      <h2>Trace</h2>
      <TraceFunnel tenant={tenant} id={id} />
    </section>
  );
}

function TraceFunnel({ tenant, id }: { tenant: string; id: string }) {
  const [read] = useRead(`${tenant}/${id}`, (signal) => api<Trace>(tenantPath(tenant, `traces/${encodeURIComponent(id)}`), { signal }));
  return <Loaded read={read}>{(t) => <Funnel tenant={tenant} trace={t} />}</Loaded>;
}

function Funnel({ tenant, trace }: { tenant: string; trace: Trace }) {
  const text = new Map(trace.pool.map((p) => [p.memoryId, p.text]));
  const name = (memoryId: string) => <a href={tenantHref(tenant, `/memories/${encodeURIComponent(memoryId)}`)}>{text.get(memoryId) ?? memoryId}</a>;
  const by = {
    semantic: trace.pool.filter((p) => p.scores.cosineSimilarity !== null).length,
    lexical: trace.pool.filter((p) => (p.scores.bm25 ?? 0) > 0).length,
    trigram: trace.pool.filter((p) => (p.scores.trigramWordSimilarity ?? 0) > 0).length,
    neighbours: trace.pool.filter((p) => p.neighbourOf).length,
  };
  const relevant = new Set(trace.relevant.flat().map((r) => r.memoryId));
  const stages: [string, number][] = [
    ['candidates', trace.pool.length],
    ['relevant (over a threshold)', relevant.size],
    ['fused', trace.merged.length],
    ['after diversity', trace.diversity.length],
    ['cut by the budget', trace.budget.cut.length],
    ['shown', trace.survivors.length],
  ];
  return (
    <div class="funnel">
      <p class="muted">
        “{trace.query.message}” as of valid <Time iso={trace.asOf.validAt} />, known <Time iso={trace.asOf.knownAt} /> · recorded <Time iso={trace.createdAt} />
      </p>
      <ol class="stages" aria-label="funnel">
        {stages.map(([label, n]) => (
          <li key={label}>
            <strong>{n}</strong> {label}
          </li>
        ))}
      </ol>
      <p class="muted">
        Candidates by retriever: {by.semantic} by embedding (cosine similarity), {by.lexical} by words (BM25 rank score), {by.trigram} by spelling (trigram word similarity), {by.neighbours} as
        neighbouring turns. Thresholds:{' '}
        {Object.entries(trace.thresholds)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}
        .
      </p>
      <h3>Candidates</h3>
      <div class="scroll">
        <table class="pool">
          <thead>
            <tr>
              <th>memory</th>
              <th>cosine similarity</th>
              <th>passage cosine similarity</th>
              <th>BM25 rank score</th>
              <th>stem coverage</th>
              <th>trigram word similarity</th>
              <th>fused</th>
              <th>outcome</th>
            </tr>
          </thead>
          <tbody>
            {trace.pool.map((p) => {
              const fused = trace.merged.find((m) => m.memoryId === p.memoryId)?.fused;
              const shown = trace.survivors.find((s) => s.memoryId === p.memoryId);
              const cut = trace.budget.cut.find((c) => c.memoryId === p.memoryId);
              const out = trace.excluded.find((x) => x.memoryId === p.memoryId);
              return (
                <tr key={p.memoryId} class={shown ? 'marked' : undefined}>
                  <td>{name(p.memoryId)}</td>
                  <td>{num(p.scores.cosineSimilarity)}</td>
                  <td>{num(p.scores.passageCosineSimilarity)}</td>
                  <td>{num(p.scores.bm25)}</td>
                  <td>{num(p.scores.stemCoverage, 2)}</td>
                  <td>{num(p.scores.trigramWordSimilarity)}</td>
                  <td>{num(fused, 4)}</td>
                  <td>
                    {shown ? `shown (${shown.channel})` : cut ? `cut: ${cut.reason}` : out ? `excluded: ${out.reason}` : relevant.has(p.memoryId) ? 'relevant, not taken' : 'below the thresholds'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {trace.excluded.length > 0 && (
        <>
          <h3>Excluded</h3>
          <ul>
            {trace.excluded.map((x) => (
              <li key={`${x.memoryId}-${x.reason}`}>
                {name(x.memoryId)}: {x.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Budget</h3>
      <p>
        {trace.budget.usedTokens} of {trace.budget.budgetTokens} tokens used ({trace.budget.tokenizer}); channels: {trace.channels.profile.length} profile, {trace.channels.fresh.length} fresh,{' '}
        {trace.channels.detail.length} detail.
      </p>
    </div>
  );
}
