/** The tenant's memories: search, and filters by status, type and speaker; each row opens its memory. */
import { useMemo } from 'preact/hooks';
import { api, tenantPath } from '../api';
import { Loaded, Time } from '../parts';
import { useRead } from '../read';
import { tenantHref, useLocation } from '../router';
import type { Memory } from '../types';

const LIMIT = 1000;
const STATUSES = ['active', 'quarantined', 'retired', 'overruled'] as const;

export function Memories({ tenant }: { tenant: string }) {
  const { pathname, search } = useLocation();
  const status = search.get('status') ?? 'active';
  // The status is asked of the API (it lists one status at a time); search, type and speaker filter what came back.
  const [read] = useRead(`${tenant}/${status}`, (signal) => api<Memory[]>(tenantPath(tenant, 'memories', { limit: LIMIT, status }), { signal }));
  const q = search.get('q') ?? '';
  const filters = { type: search.get('type') ?? '', speaker: search.get('speaker') ?? '' };
  // The filters live in the URL, so a filtered list is a link too.
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    const qs = next.toString();
    history.replaceState(null, '', pathname + (qs ? `?${qs}` : ''));
    dispatchEvent(new PopStateEvent('popstate'));
  };
  return (
    <section>
      <h2>Memories</h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status} onChange={(e) => set('status', (e.target as HTMLSelectElement).value === 'active' ? '' : (e.target as HTMLSelectElement).value)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </form>
      <Loaded
        read={read}
        empty={(all) =>
          all.length === 0 ? (status === 'active' ? 'No memories in this tenant yet. Write one with POST /v1/tenants/{tenant}/memories or a message.' : `No ${status} memories.`) : null
        }
      >
        {(all) => <MemoryTable all={all} tenant={tenant} q={q} filters={filters} set={set} />}
      </Loaded>
    </section>
  );
}

function MemoryTable({ all, tenant, q, filters, set }: { all: Memory[]; tenant: string; q: string; filters: Record<'type' | 'speaker', string>; set: (name: string, value: string) => void }) {
  const options = useMemo(() => {
    const of = (f: (m: Memory) => string) => [...new Set(all.map(f))].sort();
    return { type: of((m) => m.type), speaker: of((m) => m.speaker) };
  }, [all]);
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = all.filter(
    (m) =>
      (!filters.type || m.type === filters.type) &&
      (!filters.speaker || m.speaker === filters.speaker) &&
      words.every((w) => `${m.subject ?? ''} ${m.relation ?? ''} ${m.value ?? ''} ${m.text}`.toLowerCase().includes(w)),
  );
  return (
    <>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search
          <input type="search" value={q} onInput={(e) => set('q', (e.target as HTMLInputElement).value)} />
        </label>
        {(['type', 'speaker'] as const).map((name) => (
          <label key={name}>
            {name[0]!.toUpperCase() + name.slice(1)}
            <select value={filters[name]} onChange={(e) => set(name, (e.target as HTMLSelectElement).value)}>
              <option value="">any</option>
              {options[name].map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>
        ))}
      </form>
      <p class="muted">
        {shown.length} of {all.length} memories{all.length >= LIMIT ? ` (the newest ${LIMIT})` : ''}
      </p>
      {shown.length === 0 ? (
        <p class="state">Nothing matches. Clear the search or a filter.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>memory</th>
                <th>status</th>
                <th>type</th>
                <th>speaker</th>
                <th>valid from</th>
                <th>recorded</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((m) => (
                <tr key={m.memoryId}>
                  <td>
                    <a href={tenantHref(tenant, `/memories/${encodeURIComponent(m.memoryId)}`)}>{m.subject ? `${m.subject} · ${m.relation} · ${m.value}` : m.text}</a>
                  </td>
                  <td>
                    <span class={`status ${m.status}`}>{m.status}</span>
                  </td>
                  <td>{m.type}</td>
                  <td>{m.speaker}</td>
                  <td>
                    <Time iso={m.validFrom} />
                  </td>
                  <td>
                    <Time iso={m.recordedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
