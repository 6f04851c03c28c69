/** Small pieces every view uses: times, and the loading, empty and error states. */
import type { ComponentChildren } from 'preact';
import { explain } from './api';
import type { Read } from './read';

/** A time in the browser's time zone, the UTC instant on hover. */
export function Time({ iso }: { iso: string | null }) {
  if (!iso) return <span class="muted">—</span>;
  const d = new Date(iso);
  return (
    <time dateTime={iso} title={d.toISOString()}>
      {d.toLocaleString()}
    </time>
  );
}

export function Loaded<T>({ read, empty, children }: { read: Read<T>; empty?: (data: T) => string | null; children: (data: T) => ComponentChildren }) {
  if (read.state === 'loading') return <p class="state" role="status">Loading…</p>;
  if (read.state === 'failed') return <p class="state error" role="alert">{explain(read.error)}</p>;
  const nothing = empty?.(read.data);
  if (nothing) return <p class="state">{nothing}</p>;
  return <>{children(read.data)}</>;
}

/** An event of the log: its type (a link when given), position, batch and the key that wrote it. */
export function EventRef({ type, position, batch, actor, href }: { type: string; position: number; batch?: string | null; actor?: string | null; href?: string }) {
  return (
    <>
      {href ? <a href={href}>{type}</a> : type} #{position}
      {batch && <span class="muted"> · batch {batch}</span>}
      {actor && <span class="muted"> · key {actor}</span>}
    </>
  );
}
