/** Answers waiting for re-review: each cited memory as it was when cited beside what holds now, and a "reviewed" action. */
import { useState } from 'preact/hooks';
import { api, explain, tenantPath } from '../api';
import { Loaded, Problem, Time } from '../parts';
import { useRead } from '../read';
import { tenantHref } from '../router';
import type { AnswerView, CitingAnswer, Memory } from '../types';

export function AnswersPage({ tenant }: { tenant: string }) {
  const [read, reload] = useRead(tenant, (signal) => api<CitingAnswer[]>(tenantPath(tenant, 'answers'), { signal }));
  return (
    <section>
      <h2>Answers waiting for re-review</h2>
      <Loaded read={read} empty={(a) => (a.length === 0 ? 'No answer waits for re-review: none cited a memory that changed since.' : null)}>
        {(answers) => (
          <>
            {answers.map((a) => (
              <Reopened key={a.answerId} tenant={tenant} answer={a} reviewed={reload} />
            ))}
          </>
        )}
      </Loaded>
    </section>
  );
}

function Reopened({ tenant, answer, reviewed }: { tenant: string; answer: CitingAnswer; reviewed: () => void }) {
  const [view] = useRead(answer.answerId, async (signal) => {
    const v = await api<AnswerView>(tenantPath(tenant, `answers/${encodeURIComponent(answer.answerId)}`), { signal });
    // What took each changed citation's place, to show its value beside the one cited.
    const newer = await Promise.all(v.citations.map((c) => (c.now?.supersededBy ? api<Memory>(tenantPath(tenant, `memories/${encodeURIComponent(c.now.supersededBy)}`), { signal }) : null)));
    return { v, newer };
  });
  const [error, setError] = useState<string | null>(null);
  const review = async () => {
    setError(null);
    try {
      await api(tenantPath(tenant, `answers/${encodeURIComponent(answer.answerId)}/review`), { method: 'POST', body: {} });
      reviewed();
    } catch (err) {
      setError(explain(err));
    }
  };
  return (
    <article class="answer" aria-label={`answer ${answer.answerId}`}>
      <h3>{answer.question || '(no question recorded)'}</h3>
      <p>{answer.text}</p>
      {answer.reopened && (
        <p class="muted">
          Reopened <Time iso={answer.reopened.at} />: {answer.reopened.reason}
        </p>
      )}
      <Loaded read={view}>
        {({ v, newer }) => (
          <div class="scroll">
            <table class="citations">
              <thead>
                <tr>
                  <th>cited then</th>
                  <th>now</th>
                </tr>
              </thead>
              <tbody>
                {v.citations.map((c, i) => (
                  <tr key={c.memoryId}>
                    <td class="before">
                      <a href={tenantHref(tenant, `/memories/${encodeURIComponent(c.memoryId)}`)}>{c.value ?? c.text}</a>
                    </td>
                    <td class="after">
                      {newer[i] ? (
                        <a href={tenantHref(tenant, `/memories/${encodeURIComponent(newer[i]!.memoryId)}`)}>{newer[i]!.value ?? newer[i]!.text}</a>
                      ) : (
                        <span>{c.now ? c.now.status : 'erased'}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
      <button type="button" onClick={review}>
        Reviewed
      </button>
      <Problem message={error} />
    </article>
  );
}
