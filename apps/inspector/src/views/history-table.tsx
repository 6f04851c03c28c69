/** The rows of a bitemporal history (a key's, or a memory's stream), each with the events that opened and closed it. */
import { EventRef, Time } from '../parts';
import { tenantHref } from '../router';
import type { HistoryEntry } from '../types';

export function HistoryTable({ tenant, entries, marked }: { tenant: string; entries: HistoryEntry[]; marked?: Set<HistoryEntry> }) {
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th>value</th>
            <th>status</th>
            <th>valid from → to</th>
            <th>known from → to</th>
            <th>opened by</th>
            <th>closed by</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => {
            const on = marked?.has(e) ?? false;
            return (
              <tr key={`${e.memoryId}-${e.openedBy.position}`} class={on ? 'marked' : undefined} aria-current={on ? 'true' : undefined}>
                <td>
                  <a href={tenantHref(tenant, `/memories/${encodeURIComponent(e.memoryId)}`)}>{e.value ?? e.text}</a>
                </td>
                <td>{e.shownAs}</td>
                <td>
                  <Time iso={e.validFrom} /> → <Time iso={e.validTo} />
                </td>
                <td>
                  <Time iso={e.knownFrom} /> → <Time iso={e.knownTo} />
                </td>
                <td>
                  <EventRef type={e.openedBy.event} position={e.openedBy.position} actor={e.openedBy.actor} batch={e.openedBy.batch} causation={e.openedBy.causation} tenant={tenant} />
                </td>
                <td>
                  {e.closedBy ? (
                    <>
                      <EventRef type={e.closedBy.event} position={e.closedBy.position} batch={e.closedBy.batch} actor={e.closedBy.actor} causation={e.closedBy.causation} tenant={tenant} />
                      {e.closedBy.reason && <div class="muted">{e.closedBy.reason}</div>}
                    </>
                  ) : (
                    <span class="muted">open</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
