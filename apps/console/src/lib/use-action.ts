import { useState } from 'react';

export interface Failure {
  error: unknown;
  status?: number;
}

/**
 * Runs a changing call (create, test, redeliver...): `busy` while it runs, then a notice or the
 * problem the API answered. `run` resolves to the openapi-fetch result.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const [failure, setFailure] = useState<Failure>();
  async function act<T>(run: () => Promise<{ data?: T; error?: unknown; response: Response }>, done: string | ((data: T) => string | void)): Promise<T | undefined> {
    setBusy(true);
    setFailure(undefined);
    setNotice('');
    try {
      const { data, error, response } = await run();
      if (response.ok && error === undefined) {
        const message = typeof done === 'string' ? done : done(data as T);
        if (message) setNotice(message);
        return (data ?? ({} as T)) as T;
      }
      setFailure({ error, status: response.status });
    } catch (error) {
      setFailure({ error });
    } finally {
      setBusy(false);
    }
    return undefined;
  }
  return { busy, notice, failure, act, setNotice, setFailure };
}
