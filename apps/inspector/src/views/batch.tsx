/** A batch: every event that carried its label, the memories they touched as they stand, and its rollback. */
import { useState } from 'preact/hooks';
import { api, explain, tenantPath } from '../api';
import { EventRef, Loaded, Problem, Time } from '../parts';
import { useRead } from '../read';
import { tenantHref } from '../router';
import type { BatchView } from '../types';

export function BatchPage({ tenant, batch }: { tenant: string; batch: string }) {
  const [read, reload] = useRead(`${tenant}/${batch}`, (signal) => api<BatchView>(tenantPath(tenant, `batches/${encodeURIComponent(batch)}`), { signal }));
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rollback = async () => {
    setError(null);
    try {
      const r = await api<{ items: unknown[] }>(tenantPath(tenant, `batches/${encodeURIComponent(batch)}/rollback`), { method: 'POST', body: {} });
      setDone(`Rolled back: ${r.items.length} change(s) compensated.`);
      reload();
    } catch (err) {
      setError(explain(err));
    }
  };
  const memory = (id: string, label: string) => <a href={tenantHref(tenant, `/memories/${encodeURIComponent(id)}`)}>{label}</a>;
  return (
    <section>
      <h2>Batch {batch}</h2>
      <Loaded read={read}>
        {(b) => (
          <>
            <h3>Events</h3>
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th>event</th>
                    <th>memory</th>
                    <th>recorded</th>
                    <th>reason</th>
                  </tr>
                </thead>
                <tbody>
                  {b.events.map((e) => (
                    <tr key={e.position}>
                      <td>
                        <EventRef type={e.type} position={e.position} actor={e.actor} />
                      </td>
                      <td>{e.memoryId ? memory(e.memoryId, b.memories.find((m) => m.memoryId === e.memoryId)?.text ?? e.memoryId) : '—'}</td>
                      <td>
                        <Time iso={e.recordedAt} />
                      </td>
                      <td>{e.reason ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <h3>The memories now</h3>
            <ul>
              {b.memories.map((m) => (
                <li key={m.memoryId}>
                  {memory(m.memoryId, m.subject ? `${m.subject} · ${m.relation} · ${m.value}` : m.text)} <span class={`status ${m.status}`}>{m.status}</span>
                </li>
              ))}
            </ul>
            <button type="button" onClick={rollback}>
              Roll back this batch
            </button>
            {done && <p role="status">{done}</p>}
            <Problem message={error} />
          </>
        )}
      </Loaded>
    </section>
  );
}
