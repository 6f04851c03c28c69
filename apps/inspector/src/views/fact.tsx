/**
 * A key's bitemporal history: a two-axis chart (valid time across, transaction time up), each
 * version a rectangle with its value; the table of versions with the events that opened and
 * closed each; and an as-of control (valid time, transaction time; taken from and kept in the URL)
 * that marks which version held there and says what the agent would have been told.
 */
import { api, tenantPath } from '../api';
import { Loaded, QueryForm, Time } from '../parts';
import { HistoryTable } from './history-table';
import { useRead } from '../read';
import { useLocation } from '../router';
import type { HistoryEntry } from '../types';

const W = 720;
const H = 320;
const PAD = { left: 12, right: 12, top: 12, bottom: 28 };

/** How a version is drawn: a correction's row and a quarantined or overruled one look different from a plain one. */
function look(e: HistoryEntry): string {
  if (e.shownAs === 'quarantined') return 'quarantined';
  if (e.shownAs === 'overruled') return 'overruled';
  if (e.openedBy.event === 'FactCorrected' || e.closedBy?.event === 'FactCorrected') return 'corrected';
  return 'plain';
}

const holds = (e: HistoryEntry, validAt: number, knownAt: number): boolean =>
  Date.parse(e.validFrom) <= validAt &&
  (e.validTo === null || validAt < Date.parse(e.validTo)) &&
  Date.parse(e.knownFrom ?? e.validFrom) <= knownAt &&
  (e.knownTo === null || knownAt < Date.parse(e.knownTo));

function Chart({ entries, at }: { entries: HistoryEntry[]; at: { validAt: number; knownAt: number; marked: Set<HistoryEntry> } }) {
  const { validAt, knownAt } = at;
  const right = W - PAD.right;
  const bottom = H - PAD.bottom;
  // Valid time across, in proportion: an open version runs to the right edge.
  const valid = entries.flatMap((e) => [Date.parse(e.validFrom), ...(e.validTo ? [Date.parse(e.validTo)] : [])]).concat(validAt);
  const lo = Math.min(...valid);
  const span = Math.max(Math.max(...valid) - lo, 86_400_000) * 1.15;
  const x = (t: number) => PAD.left + ((t - lo) / span) * (right - PAD.left);
  // Transaction time up, one step per moment the ledger learned something (changes come in bursts:
  // in proportion, a correction a second after a write would be a hairline); a still-believed row runs to the top.
  const known = [
    ...new Set(
      entries
        .flatMap((e) => [e.knownFrom, e.knownTo])
        .filter((t): t is string => t !== null)
        .map(Date.parse),
    ),
  ].sort((a, b) => a - b);
  const step = (bottom - PAD.top) / Math.max(known.length, 1);
  const rank = (t: number): number => {
    const i = known.findIndex((k) => k > t);
    if (i === 0) return 0;
    if (i === -1) return known.length - 0.5;
    return i - 1 + (t - known[i - 1]!) / (known[i]! - known[i - 1]!);
  };
  const y = (t: number): number => bottom - rank(t) * step;
  return (
    <svg class="timeline" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Versions by valid time (across) and transaction time (up)">
      <line x1={PAD.left} y1={bottom} x2={right} y2={bottom} class="axis" />
      <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={bottom} class="axis" />
      <text x={right} y={H - 8} text-anchor="end" class="axis-label">
        valid time →
      </text>
      <text x={PAD.left + 4} y={PAD.top + 10} class="axis-label">
        ↑ transaction time
      </text>
      {entries.map((e) => {
        const x0 = x(Date.parse(e.validFrom));
        const x1 = e.validTo === null ? right : x(Date.parse(e.validTo));
        const y0 = y(Date.parse(e.knownFrom ?? e.validFrom));
        const y1 = e.knownTo === null ? PAD.top : y(Date.parse(e.knownTo));
        const marked = at.marked.has(e);
        return (
          <g key={`${e.memoryId}-${e.openedBy.position}`} class={`version ${look(e)}${marked ? ' marked' : ''}`} data-value={e.value ?? ''}>
            <title>{`${e.value ?? e.text}: valid ${e.validFrom} → ${e.validTo ?? '∞'}, known ${e.knownFrom} → ${e.knownTo ?? 'now'} (${e.openedBy.event})`}</title>
            <rect x={x0} y={y1} width={Math.max(x1 - x0, 2)} height={Math.max(y0 - y1, 2)} />
            <text x={x0 + 4} y={y0 - 6} class="value">
              {e.value ?? e.text}
            </text>
          </g>
        );
      })}
      <circle cx={x(validAt)} cy={y(knownAt)} r={5} class="as-of" />
    </svg>
  );
}

export function FactPage({ tenant }: { tenant: string }) {
  const { search } = useLocation();
  const subject = search.get('subject') ?? '';
  const relation = search.get('relation') ?? '';
  const scope = search.get('scope') ?? undefined;
  const validAtText = search.get('validAt') ?? '';
  const knownAtText = search.get('knownAt') ?? '';
  const key = subject && relation ? `${tenant}|${subject}|${relation}|${scope ?? ''}` : null;
  const [history] = useRead(key, (signal) => api<{ entries: HistoryEntry[] }>(tenantPath(tenant, 'history', { subject, relation, scope }), { signal }));
  const [told] = useRead(key ? `${key}|${validAtText}|${knownAtText}` : null, (signal) =>
    api<{ value: string | null; values: string[]; validAt: string; knownAt: string }>(
      tenantPath(tenant, 'facts', { subject, relation, scope, validAt: validAtText || undefined, knownAt: knownAtText || undefined }),
      { signal },
    ),
  );
  if (!key) return <p class="state">Name a key: open it from a memory, or add ?subject=…&amp;relation=… to the URL.</p>;
  return (
    <section>
      <h2>
        {subject} · {relation}
      </h2>
      <QueryForm
        initial={search}
        keep={['subject', 'relation', 'scope']}
        submit="Mark"
        fields={[
          { name: 'validAt', label: 'Valid at', hint: 'now' },
          { name: 'knownAt', label: 'Known at', hint: 'now' },
        ]}
      />
      <Loaded read={told}>
        {(t) => (
          <p class="told" role="status">
            Valid at <Time iso={t.validAt} />, as known at <Time iso={t.knownAt} />, the agent would have been told: <strong>{t.values.length ? t.values.join(', ') : 'nothing'}</strong>
          </p>
        )}
      </Loaded>
      <Loaded read={history} empty={(h) => (h.entries.length === 0 ? 'This key has no versions in this tenant.' : null)}>
        {(h) => {
          const at = markedAt(h.entries, asOfPoint(search));
          return (
            <>
              <div class="scroll">
                <Chart entries={h.entries} at={at} />
              </div>
              <p class="legend muted">
                <span class="swatch plain" /> a version <span class="swatch corrected" /> corrected <span class="swatch quarantined" /> quarantined <span class="swatch overruled" /> overruled · the
                dot is the as-of point
              </p>
              <HistoryTable tenant={tenant} entries={h.entries} marked={at.marked} />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

/** The as-of point asked for in the URL (now where not given). */
function asOfPoint(search: URLSearchParams): { validAt: number; knownAt: number } {
  const at = (name: string) => {
    const t = Date.parse(search.get(name) ?? '');
    return Number.isNaN(t) ? Date.now() : t;
  };
  return { validAt: at('validAt'), knownAt: at('knownAt') };
}

/** Which versions held at the as-of point (active ones: what a read there returns). */
function markedAt(entries: HistoryEntry[], at: { validAt: number; knownAt: number }): { validAt: number; knownAt: number; marked: Set<HistoryEntry> } {
  return { ...at, marked: new Set(entries.filter((e) => e.shownAs === 'active' && holds(e, at.validAt, at.knownAt))) };
}
