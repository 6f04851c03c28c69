/**
 * The audit: what the agent believed (every memory in the read paths as the ledger knew them at
 * `knownAt`, true at `validAt`), and what changed in that between two moments, each change with
 * its events, batch and key. The inputs are the URL's query, so a view is a link.
 */
import { api, tenantPath } from '../api';
import { EventRef, Loaded, QueryForm, Time } from '../parts';
import { useRead } from '../read';
import { factHref, tenantHref, useLocation } from '../router';
import type { Belief, BeliefDiff, Believed } from '../types';

const label = (m: Pick<Believed, 'subject' | 'relation' | 'value' | 'text'>) => (m.subject ? `${m.subject} · ${m.relation} · ${m.value}` : m.text);

export function AuditPage({ tenant }: { tenant: string }) {
  const { search } = useLocation();
  const query = { knownAt: search.get('knownAt') ?? undefined, validAt: search.get('validAt') ?? undefined, subject: search.get('subject') ?? undefined };
  const [read] = useRead(`${tenant}?${search.toString()}`, (signal) => api<Belief>(tenantPath(tenant, 'audit', query), { signal }));
  return (
    <section>
      <h2>What the agent believed</h2>
      <QueryForm
        initial={search}
        submit="Show"
        fields={[
          { name: 'knownAt', label: 'Known at', hint: '2026-03-02T09:00:00Z (default: now)' },
          { name: 'validAt', label: 'True at', hint: 'default: the same moment' },
          { name: 'subject', label: 'Subject', hint: 'every subject' },
        ]}
      />
      <p>
        <a href={tenantHref(tenant, `/audit/diff${search.get('knownAt') ? `?to=${encodeURIComponent(search.get('knownAt')!)}` : ''}`)}>What changed between two moments →</a>
      </p>
      <Loaded read={read}>
        {(b) => (
          <>
            <p class="muted">
              As known at <Time iso={b.knownAt} />, true at <Time iso={b.validAt} />: {b.memories.length} memories{b.truncated ? ' (more not shown; ask for one subject)' : ''}.
            </p>
            {b.memories.length === 0 ? (
              <p class="state">Nothing was believed then. Try a later moment.</p>
            ) : (
              <div class="scroll">
                <table class="audit">
                  <thead>
                    <tr>
                      <th>memory</th>
                      <th>valid from → to</th>
                      <th>recorded</th>
                      <th>speaker</th>
                    </tr>
                  </thead>
                  <tbody>
                    {b.memories.map((m) => (
                      <tr key={m.memoryId}>
                        <td>
                          <a href={tenantHref(tenant, `/memories/${encodeURIComponent(m.memoryId)}`)}>{label(m)}</a>
                          {m.subject && (
                            <>
                              {' · '}
                              <a class="muted" href={factHref(tenant, m, { validAt: b.validAt, knownAt: b.knownAt })}>
                                history
                              </a>
                            </>
                          )}
                        </td>
                        <td>
                          <Time iso={m.validFrom} /> → <Time iso={m.validTo} />
                        </td>
                        <td>
                          <Time iso={m.recordedAt} />
                        </td>
                        <td>{m.speaker}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

export function DiffPage({ tenant }: { tenant: string }) {
  const { search } = useLocation();
  const from = search.get('from');
  const to = search.get('to');
  const ready = from && to ? `${tenant}?${search.toString()}` : null;
  const [read] = useRead(ready, (signal) =>
    api<BeliefDiff>(tenantPath(tenant, 'audit/diff', { from: from!, to: to!, validAt: search.get('validAt') ?? undefined, subject: search.get('subject') ?? undefined }), { signal }),
  );
  return (
    <section>
      <h2>What changed in what the agent believed</h2>
      <QueryForm
        initial={search}
        submit="Compare"
        fields={[
          { name: 'from', label: 'From', required: true, hint: '2026-03-02T09:00:00Z' },
          { name: 'to', label: 'To', required: true, hint: '2026-03-06T09:00:00Z' },
          { name: 'validAt', label: 'True at', hint: 'default: each side at its own moment' },
          { name: 'subject', label: 'Subject', hint: 'every subject' },
        ]}
      />
      {!ready ? (
        <p class="state">Give two moments to compare.</p>
      ) : (
        <Loaded read={read}>
          {(d) =>
            d.changes.length === 0 ? (
              <p class="state">Nothing changed between these two moments.</p>
            ) : (
              <div class="scroll">
                <table class="diff">
                  <thead>
                    <tr>
                      <th>key</th>
                      <th>before</th>
                      <th>after</th>
                      <th>events</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.changes.map((c, i) => (
                      <tr key={i}>
                        <td>{c.subject ? `${c.subject} · ${c.relation}` : 'prose'}</td>
                        <td class="before">
                          {c.before.map((m) => (
                            <div key={m.memoryId}>{m.value ?? m.text}</div>
                          ))}
                        </td>
                        <td class="after">
                          {c.after.map((m) => (
                            <div key={m.memoryId}>{m.value ?? m.text}</div>
                          ))}
                        </td>
                        <td>
                          {c.events.length === 0 ? (
                            <span class="muted">valid time only</span>
                          ) : (
                            c.events.map((e) => (
                              <div key={e.position}>
                                <EventRef
                                  type={e.type}
                                  position={e.position}
                                  batch={e.batch}
                                  actor={e.actor}
                                  tenant={tenant}
                                  href={e.memoryId ? tenantHref(tenant, `/memories/${encodeURIComponent(e.memoryId)}`) : undefined}
                                />{' '}
                                <Time iso={e.recordedAt} />
                              </div>
                            ))
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </Loaded>
      )}
    </section>
  );
}
