import { type FormEvent, useState } from 'react';
import { type Api, REFRESH_COOKIE_HEADERS, type Tokens } from '../api/client';
import { ErrorMessage } from '../components';

export function SignInPage({ api, onSignedIn }: { api: Api; onSignedIn: (tokens: Tokens) => void }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown; status?: number }>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setFailure(undefined);
    try {
      const { data, error, response } = await api.POST('/v1/auth/login', {
        body: { email: String(form.get('email')), password: String(form.get('password')) },
        headers: REFRESH_COOKIE_HEADERS,
      });
      if (data) onSignedIn(data);
      else setFailure({ error, status: response.status });
    } catch (error) {
      setFailure({ error });
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Vigil</h1>
      <form onSubmit={submit} aria-describedby={failure ? 'sign-in-error' : undefined}>
        <label htmlFor="email">E-mail</label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {failure && (
        <div id="sign-in-error">
          <ErrorMessage error={failure.error} status={failure.status} />
        </div>
      )}
    </main>
  );
}
