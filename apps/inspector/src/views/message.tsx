/** One ingested message: triage, then every candidate with its verdict, each gate's finding, and what resolution did. */
import { api, tenantPath } from '../api';
import { Loaded } from '../parts';
import { useRead } from '../read';
import { tenantHref } from '../router';
import type { IngestResult } from '../types';

export function MessagePage({ tenant, messageId }: { tenant: string; messageId: string }) {
  const [read] = useRead(`${tenant}/${messageId}`, (signal) => api<IngestResult>(tenantPath(tenant, `messages/${encodeURIComponent(messageId)}`), { signal }));
  const memory = (id: string, label: string) => <a href={tenantHref(tenant, `/memories/${encodeURIComponent(id)}`)}>{label}</a>;
  return (
    <section>
      <h2>Message</h2>
      <Loaded read={read}>
        {(m) => (
          <>
            <dl class="facts">
              <dt>triage</dt>
              <dd>
                <strong>{m.kind}</strong> · topic {m.topic} · {m.language} · {m.speaker} ({m.source}){m.triage.length > 0 && <div class="muted">{m.triage.join('; ')}</div>}
              </dd>
              <dt>stored</dt>
              <dd>{m.stored.length ? m.stored.map((id) => <div key={id}>{memory(id, id)}</div>) : <span class="muted">nothing</span>}</dd>
              <dt>resolution</dt>
              <dd>
                {m.resolved.retired} retired, {m.resolved.keptUnsure} kept as unsure{m.resolved.batch && ` · batch ${m.resolved.batch}`}
              </dd>
              {m.erased && (
                <>
                  <dt>erased</dt>
                  <dd>by erasure {m.erased}: its texts are gone</dd>
                </>
              )}
            </dl>
            <h3>Candidates</h3>
            {m.candidates.length === 0 && <p class="state">No candidate: the message stated nothing to keep.</p>}
            {m.candidates.map((c, i) => (
              <article class="candidate" key={i} aria-label={`candidate ${i + 1}`}>
                <h4>
                  <span class={`verdict ${c.verdict}`}>{c.verdict}</span> {c.subject ? `${c.subject} · ${c.relation} · ${c.value}` : c.text}
                </h4>
                <p class="muted">
                  {c.reason} · type {c.type ?? c.proposedType} · rule {c.rule}
                  {c.memoryId && <> · {memory(c.memoryId, c.outcome ?? 'stored')}</>}
                </p>
                <div class="scroll">
                  <table>
                    <thead>
                      <tr>
                        <th>gate</th>
                        <th>passed</th>
                        <th>finding</th>
                      </tr>
                    </thead>
                    <tbody>
                      {c.gates.map((g) => (
                        <tr key={g.gate}>
                          <td>{g.gate}</td>
                          <td>{g.passed ? 'yes' : 'no'}</td>
                          <td>{g.detail}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                {c.resolution && c.resolution.length > 0 && (
                  <ul>
                    {c.resolution.map((r) => (
                      <li key={r.memoryId}>
                        {r.effect}: {memory(r.memoryId, r.text)} <span class="muted">({r.rule})</span>
                      </li>
                    ))}
                  </ul>
                )}
              </article>
            ))}
          </>
        )}
      </Loaded>
    </section>
  );
}
