/** Small pieces every view uses: times, and the loading, empty and error states. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { explain } from './api';
import type { Read } from './read';
import { navigate, tenantHref } from './router';

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
  if (read.state === 'loading')
    return (
      <p class="state" role="status">
        Loading…
      </p>
    );
  if (read.state === 'failed') return <Problem message={explain(read.error)} />;
  const nothing = empty?.(read.data);
  if (nothing) return <p class="state">{nothing}</p>;
  return <>{children(read.data)}</>;
}

/** An event of the log: its type (a link when given), position, batch and the key that wrote it. */
export function EventRef({
  type,
  position,
  batch,
  actor,
  causation,
  href,
  tenant,
}: {
  type: string;
  position: number;
  batch?: string | null;
  actor?: string | null;
  causation?: string | null;
  href?: string;
  tenant?: string;
}) {
  return (
    <>
      {href ? <a href={href}>{type}</a> : type} #{position}
      {batch && <span class="muted"> · batch {tenant ? <a href={tenantHref(tenant, `/batches/${encodeURIComponent(batch)}`)}>{batch}</a> : batch}</span>}
      {actor && <span class="muted"> · key {actor}</span>}
      {causation && <span class="muted"> · caused by {causation}</span>}
    </>
  );
}

/** A form whose fields become the page's query string on submit (with the `keep` parameters of the page's own). */
export function QueryForm({
  fields,
  submit,
  initial,
  keep = [],
}: {
  fields: { name: string; label: string; required?: boolean; hint?: string }[];
  submit: string;
  initial: URLSearchParams;
  keep?: string[];
}) {
  const [values, setValues] = useState(() => Object.fromEntries(fields.map((f) => [f.name, initial.get(f.name) ?? ''])));
  const go = (e: Event) => {
    e.preventDefault();
    const q = new URLSearchParams([...keep.flatMap((k) => (initial.has(k) ? [[k, initial.get(k)!]] : [])), ...Object.entries(values).filter(([, v]) => v.trim() !== '')]);
    navigate(`${location.pathname}?${q.toString()}`);
  };
  return (
    <form class="filters" onSubmit={go}>
      {fields.map((f) => (
        <label key={f.name}>
          {f.label}
          <input name={f.name} value={values[f.name]} required={f.required} placeholder={f.hint} onInput={(e) => setValues({ ...values, [f.name]: (e.target as HTMLInputElement).value })} />
        </label>
      ))}
      <button type="submit">{submit}</button>
    </form>
  );
}

/** What went wrong, said where it happened (nothing when nothing did). */
export function Problem({ message }: { message: string | null }) {
  return message ? (
    <p class="state error" role="alert">
      {message}
    </p>
  ) : null;
}
