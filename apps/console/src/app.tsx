import { useMemo, useRef, useState } from 'react';
import { createApi, type Tokens } from './api/client';
import { Link } from './components';
import { navigate, useRoute } from './lib/navigation';
import { hasScope, scopesOfToken } from './lib/scopes';
import { AlertDetailPage } from './pages/alert-detail';
import { AlertsPage } from './pages/alerts';
import { OverviewPage } from './pages/overview';
import { SignInPage } from './pages/sign-in';

export function App() {
  // Tokens are kept in memory only: a reload signs out (refresh through a cookie is not built yet).
  const [session, setSession] = useState<Tokens>();
  const token = useRef<string | undefined>(undefined);
  token.current = session?.access_token;
  const returnTo = useRef('/');
  const route = useRoute();
  const api = useMemo(
    () =>
      createApi(
        () => token.current,
        () => {
          token.current = undefined;
          setSession(undefined);
        },
      ),
    [],
  );

  if (!session) {
    if (route.page !== 'sign-in') returnTo.current = window.location.pathname + window.location.search;
    return (
      <SignInPage
        api={api}
        onSignedIn={(tokens) => {
          token.current = tokens.access_token;
          setSession(tokens);
          navigate(returnTo.current === '/sign-in' ? '/' : returnTo.current, { replace: true });
        }}
      />
    );
  }

  const current = route.page === 'alert' ? 'alerts' : route.page;
  const scopes = scopesOfToken(session.access_token);
  const canReadAlerts = hasScope(scopes, 'read:alerts');
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Vigil</span>
        <nav aria-label="Console">
          <ul>
            <li>
              <span aria-current={current === 'overview' ? 'page' : undefined}>
                <Link to="/">Overview</Link>
              </span>
            </li>
            {canReadAlerts && (
              <li>
                <span aria-current={current === 'alerts' ? 'page' : undefined}>
                  <Link to="/alerts">Alerts</Link>
                </span>
              </li>
            )}
          </ul>
        </nav>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            token.current = undefined;
            setSession(undefined);
            navigate('/sign-in');
          }}
        >
          Sign out
        </button>
      </header>
      {route.page === 'overview' && <OverviewPage api={api} scopes={scopes} />}
      {route.page === 'alerts' && <AlertsPage api={api} search={route.search} />}
      {route.page === 'alert' && <AlertDetailPage key={route.id} api={api} id={route.id} canChange={hasScope(scopes, 'write:alerts')} />}
      {route.page === 'sign-in' && (
        <main id="main">
          <h1>Signed in</h1>
          <p>
            <Link to="/">Go to the overview</Link>
          </p>
        </main>
      )}
      {route.page === 'not-found' && (
        <main id="main">
          <h1>Page not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code> in this console yet. <Link to="/">Go to the overview</Link>.
          </p>
        </main>
      )}
    </>
  );
}
