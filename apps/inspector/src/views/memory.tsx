/** One memory: as it stands, its bitemporal history with the events that opened and closed each row, the answers that cited it, and its lifecycle. */
import { useState } from 'preact/hooks';
import { api, explain, tenantPath } from '../api';
import { Loaded, Problem, Time } from '../parts';
import { HistoryTable } from './history-table';
import { useRead } from '../read';
import { factHref, tenantHref } from '../router';
import type { CitingAnswer, HistoryEntry, Memory } from '../types';

export function MemoryPage({ tenant, memoryId }: { tenant: string; memoryId: string }) {
  const id = encodeURIComponent(memoryId);
  const [memory, reload] = useRead(`${tenant}/${memoryId}`, (signal) => api<Memory>(tenantPath(tenant, `memories/${id}`), { signal }));
  const [history] = useRead(memory.state === 'done' ? `${memory.data.memoryId}/${memory.data.status}` : null, (signal) =>
    api<{ entries: HistoryEntry[] }>(tenantPath(tenant, `memories/${id}/history`), { signal }),
  );
  const [answers] = useRead(`${tenant}/${memoryId}`, (signal) => api<CitingAnswer[]>(tenantPath(tenant, `memories/${id}/answers`), { signal }));
  return (
    <section>
      <Loaded read={memory}>
        {(m) => (
          <>
            <h2>{m.subject ? `${m.subject} · ${m.relation} · ${m.value}` : 'Prose memory'}</h2>
            <dl class="facts">
              <dt>text</dt>
              <dd>{m.text}</dd>
              <dt>status</dt>
              <dd>
                <span class={`status ${m.status}`}>{m.status}</span>
                {m.supersededBy && (
                  <>
                    {' '}
                    by <a href={tenantHref(tenant, `/memories/${encodeURIComponent(m.supersededBy)}`)}>{m.supersededBy}</a>
                  </>
                )}
                {m.unconfirmed && (
                  <>
                    {' '}
                    <span class="status unconfirmed">unconfirmed</span>: <a href={tenantHref(tenant, `/memories/${encodeURIComponent(m.unconfirmed.premise)}`)}>what it hangs on</a> changed (
                    {m.unconfirmed.event}
                    {m.unconfirmed.by && (
                      <>
                        , now <a href={tenantHref(tenant, `/memories/${encodeURIComponent(m.unconfirmed.by)}`)}>{m.unconfirmed.by}</a>
                      </>
                    )}
                    )
                  </>
                )}
              </dd>
              {m.dependsOn.length > 0 && (
                <>
                  <dt>hangs on</dt>
                  <dd>
                    {m.dependsOn.map((id) => (
                      <>
                        <a href={tenantHref(tenant, `/memories/${encodeURIComponent(id)}`)}>{id}</a>{' '}
                      </>
                    ))}
                  </dd>
                </>
              )}
              <dt>type · speaker · source</dt>
              <dd>
                {m.type} · {m.speaker} ·{' '}
                {m.source?.startsWith('message:') ? <a href={tenantHref(tenant, `/messages/${encodeURIComponent(m.source.slice('message:'.length))}`)}>{m.source}</a> : (m.source ?? '—')}
              </dd>
              <dt>valid</dt>
              <dd>
                <Time iso={m.validFrom} /> → <Time iso={m.validTo} />
              </dd>
              <dt>said</dt>
              <dd>
                <Time iso={m.saidAt} />
              </dd>
              <dt>recorded</dt>
              <dd>
                <Time iso={m.recordedAt} />
              </dd>
              <dt>id</dt>
              <dd>
                <code>{m.memoryId}</code>
              </dd>
            </dl>
            {m.subject && m.relation && (
              <p>
                <a href={factHref(tenant, m)}>The key's history, as a chart →</a>
              </p>
            )}
            <Lifecycle tenant={tenant} memory={m} done={reload} />
          </>
        )}
      </Loaded>
      <h3>History: the events that opened and closed each row</h3>
      <Loaded read={history} empty={(h) => (h.entries.length === 0 ? 'No history rows.' : null)}>
        {(h) => <HistoryTable tenant={tenant} entries={h.entries} />}
      </Loaded>
      <h3>Answers that cited it</h3>
      <Loaded read={answers} empty={(a) => (a.length === 0 ? 'No recorded answer cited this memory.' : null)}>
        {(a) => (
          <ul>
            {a.map((x) => (
              <li key={x.answerId}>
                <strong>{x.question || '(no question)'}</strong> — {x.text} <span class="muted">({x.status})</span>
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </section>
  );
}

/**
 * Quarantine or restore, and retype, each with a reason (recorded on its event), for a key with
 * `write` scope; the API decides and the page says what it answered.
 */
function Lifecycle({ tenant, memory, done }: { tenant: string; memory: Memory; done: () => void }) {
  const [reason, setReason] = useState('');
  const [type, setType] = useState('');
  const [why, setWhy] = useState('');
  const [error, setError] = useState<string | null>(null);
  const action = memory.status === 'quarantined' ? 'restore' : memory.status === 'active' ? 'quarantine' : null;
  if (!action) return null;
  const send = async (e: Event, path: string, body: Record<string, string>) => {
    e.preventDefault();
    setError(null);
    try {
      await api(tenantPath(tenant, `memories/${encodeURIComponent(memory.memoryId)}/${path}`), { method: 'POST', body });
      setReason('');
      setType('');
      setWhy('');
      done();
    } catch (err) {
      setError(explain(err));
    }
  };
  return (
    <>
      <form class="lifecycle" onSubmit={(e) => send(e, action, { reason })}>
        <label>
          Reason
          <input name="reason" value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} required />
        </label>
        <button type="submit">{action === 'quarantine' ? 'Quarantine' : 'Restore'}</button>
      </form>
      <form class="lifecycle" onSubmit={(e) => send(e, 'retype', { type, reason: why })}>
        <label>
          New type
          <input name="type" value={type} placeholder={memory.type} onInput={(e) => setType((e.target as HTMLInputElement).value)} required />
        </label>
        <label>
          Reason for the new type
          <input name="retype-reason" value={why} onInput={(e) => setWhy((e.target as HTMLInputElement).value)} required />
        </label>
        <button type="submit">Retype</button>
      </form>
      <Problem message={error} />
    </>
  );
}
