import { useCallback, useEffect, useState } from 'react';
import { type Outcome, takePrefetched } from './prefetch';

export type RequestState<T> =
  | { state: 'loading' }
  | { state: 'error'; error: unknown; status?: number }
  | { state: 'done'; data: T };

/**
 * Runs an API call when its key changes; `reload` runs it again. The first time, a call already
 * started under the same key (`prefetch`) is used instead of a new one.
 */
export function useRequest<T>(key: string, run: () => Promise<Outcome<T>>) {
  const [result, setResult] = useState<RequestState<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setResult({ state: 'loading' });
    ((round === 0 ? takePrefetched<T>(key) : undefined) ?? run()).then(
      ({ data, error, response }) => {
        if (!current) return;
        setResult(data !== undefined && !error ? { state: 'done', data } : { state: 'error', error, status: response.status });
      },
      (error: unknown) => current && setResult({ state: 'error', error }),
    );
    return () => {
      current = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return [result, reload] as const;
}
