import { useCallback, useEffect, useState } from 'react';

export type RequestState<T> =
  | { state: 'loading' }
  | { state: 'error'; error: unknown; status?: number }
  | { state: 'done'; data: T };

/** Runs an API call when its key changes; `reload` runs it again. */
export function useRequest<T>(key: string, run: () => Promise<{ data?: T; error?: unknown; response: Response }>) {
  const [result, setResult] = useState<RequestState<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setResult({ state: 'loading' });
    run().then(
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
