/** One read of the API for a view: loading, then the data or the error, again whenever `key` changes. */
import { useEffect, useState } from 'preact/hooks';

export type Read<T> = { state: 'loading' } | { state: 'done'; data: T } | { state: 'failed'; error: unknown };

export function useRead<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): [Read<T>, () => void] {
  const [read, setRead] = useState<Read<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (key === null) return;
    const abort = new AbortController();
    setRead({ state: 'loading' });
    load(abort.signal).then(
      (data) => !abort.signal.aborted && setRead({ state: 'done', data }),
      (error) => !abort.signal.aborted && setRead({ state: 'failed', error }),
    );
    return () => abort.abort();
  }, [key, round]);
  return [read, () => setRound((n) => n + 1)];
}
