import { lazy, type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { createApi, type Tokens } from './api/client';
import { Link, Loading } from './components';
import { navigate, useRoute } from './lib/navigation';
import type { Route } from './lib/routes';
import { hasScope, type Scopes, scopesOfToken } from './lib/scopes';
import { OverviewPage } from './pages/overview';
import { SignInPage } from './pages/sign-in';
import { refreshAcrossTabs, resumedAlready, takeResume } from './session';

// Every page but the overview and sign-in is its own chunk, loaded when first opened.
const AlertsPage = lazy(() => import('./pages/alerts').then((m) => ({ default: m.AlertsPage })));
const AlertDetailPage = lazy(() => import('./pages/alert-detail').then((m) => ({ default: m.AlertDetailPage })));
const LivePage = lazy(() => import('./pages/live').then((m) => ({ default: m.LivePage })));
const EventsPage = lazy(() => import('./pages/events').then((m) => ({ default: m.EventsPage })));
const EventPage = lazy(() => import('./pages/events').then((m) => ({ default: m.EventPage })));
const PoliciesPage = lazy(() => import('./pages/policies').then((m) => ({ default: m.PoliciesPage })));
const PolicyPage = lazy(() => import('./pages/policy-detail').then((m) => ({ default: m.PolicyPage })));
const PolicyEditorPage = lazy(() => import('./pages/policy-editor').then((m) => ({ default: m.PolicyEditorPage })));
const WebhooksPage = lazy(() => import('./pages/webhooks').then((m) => ({ default: m.WebhooksPage })));
const WebhookPage = lazy(() => import('./pages/webhooks').then((m) => ({ default: m.WebhookPage })));
const DestinationsPage = lazy(() => import('./pages/destinations').then((m) => ({ default: m.DestinationsPage })));
const DestinationPage = lazy(() => import('./pages/destinations').then((m) => ({ default: m.DestinationPage })));
const DatabasesPage = lazy(() => import('./pages/databases').then((m) => ({ default: m.DatabasesPage })));
const ReportsPage = lazy(() => import('./pages/reports').then((m) => ({ default: m.ReportsPage })));
const AccessPage = lazy(() => import('./pages/access').then((m) => ({ default: m.AccessPage })));

type Section = 'overview' | 'live' | 'events' | 'alerts' | 'policies' | 'webhooks' | 'destinations' | 'databases' | 'reports' | 'access';

/** The navigation: each section, its address and the scope that shows it. */
const SECTIONS: { section: Section; label: string; to: string; scope?: string }[] = [
  { section: 'overview', label: 'Overview', to: '/' },
  { section: 'live', label: 'Live', to: '/live', scope: 'read:logs' },
  { section: 'events', label: 'Events', to: '/events', scope: 'read:logs' },
  { section: 'alerts', label: 'Alerts', to: '/alerts', scope: 'read:alerts' },
  { section: 'policies', label: 'Policies', to: '/policies', scope: 'read:policies' },
  { section: 'webhooks', label: 'Webhooks', to: '/webhooks', scope: 'read:alerts' },
  { section: 'destinations', label: 'Destinations', to: '/destinations', scope: 'read:alerts' },
  { section: 'databases', label: 'Databases', to: '/databases', scope: 'read:databases' },
  { section: 'reports', label: 'Reports', to: '/reports', scope: 'read:reports' },
  { section: 'access', label: 'Access', to: '/access', scope: 'admin' },
];

function sectionOf(route: Route): Section | undefined {
  switch (route.page) {
    case 'alert':
      return 'alerts';
    case 'event':
      return 'events';
    case 'policy':
    case 'policy-new':
    case 'policy-edit':
      return 'policies';
    case 'webhook':
      return 'webhooks';
    case 'destination':
      return 'destinations';
    case 'sign-in':
    case 'not-found':
      return undefined;
    default:
      return route.page;
  }
}

function NoAccess({ scope }: { scope: string }) {
  return (
    <main id="main">
      <h1>Not available</h1>
      <p>
        This page needs the <code>{scope}</code> scope, which your access does not include. <Link to="/">Go to the overview</Link>.
      </p>
    </main>
  );
}

function page(route: Route, api: ReturnType<typeof createApi>, scopes: Scopes, token: () => string | undefined): ReactNode {
  const can = (scope: string) => hasScope(scopes, scope);
  const section = SECTIONS.find((item) => item.section === sectionOf(route));
  if (section?.scope && !can(section.scope)) return <NoAccess scope={section.scope} />;
  switch (route.page) {
    case 'overview':
      return <OverviewPage api={api} scopes={scopes} />;
    case 'alerts':
      return <AlertsPage api={api} search={route.search} />;
    case 'alert':
      return <AlertDetailPage key={route.id} api={api} id={route.id} canChange={can('write:alerts')} scopes={scopes} />;
    case 'live':
      return <LivePage token={token} />;
    case 'events':
      return <EventsPage api={api} search={route.search} scopes={scopes} />;
    case 'event':
      return <EventPage key={route.id} api={api} id={route.id} scopes={scopes} />;
    case 'policies':
      return <PoliciesPage api={api} search={route.search} canChange={can('write:policies')} />;
    case 'policy':
      return <PolicyPage key={route.id} api={api} id={route.id} canChange={can('write:policies')} />;
    case 'policy-new':
      return can('write:policies') ? <PolicyEditorPage api={api} /> : <NoAccess scope="write:policies" />;
    case 'policy-edit':
      return can('write:policies') ? <PolicyEditorPage key={route.id} api={api} id={route.id} /> : <NoAccess scope="write:policies" />;
    case 'webhooks':
      return <WebhooksPage api={api} canChange={can('write:alerts')} />;
    case 'webhook':
      return <WebhookPage key={route.id} api={api} id={route.id} canChange={can('write:alerts')} />;
    case 'destinations':
      return <DestinationsPage api={api} canChange={can('write:alerts')} />;
    case 'destination':
      return <DestinationPage key={route.id} api={api} id={route.id} canChange={can('write:alerts')} />;
    case 'databases':
      return <DatabasesPage api={api} />;
    case 'reports':
      return <ReportsPage api={api} canChange={can('write:reports')} token={token} />;
    case 'access':
      return <AccessPage api={api} />;
    case 'sign-in':
      return (
        <main id="main">
          <h1>Signed in</h1>
          <p>
            <Link to="/">Go to the overview</Link>
          </p>
        </main>
      );
    case 'not-found':
      return (
        <main id="main">
          <h1>Page not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code> in this console. <Link to="/">Go to the overview</Link>.
          </p>
        </main>
      );
  }
}

export function App() {
  // The access token is kept in memory only; the refresh token lives in an httpOnly cookie the
  // gateway sets (X-Vigil-Refresh: cookie), so a reload signs in again through POST /v1/auth/refresh.
  // The session resume started with the script (session.ts) may have answered already.
  const [session, setSession] = useState<Tokens | undefined>(() => resumedAlready()?.data);
  const [resuming, setResuming] = useState(() => resumedAlready() === undefined);
  const refreshing = useRef<Promise<{ data?: Tokens }>>(undefined);
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
  const readToken = useMemo(() => () => token.current, []);

  // On start, and shortly before each access token expires: new tokens from the refresh cookie.
  useEffect(() => {
    if (session && !resuming) {
      const seconds = Math.max(10, Math.floor(session.expires_in * 0.8));
      const timer = setTimeout(() => void refresh(false), seconds * 1000);
      return () => clearTimeout(timer);
    }
    if (!session && resuming) void refresh(true);
    return undefined;

    async function refresh(first: boolean) {
      try {
        // One refresh at a time: the cookie's token works once, and presenting it twice (React's
        // development double effects, a re-render mid-flight) would revoke the whole session.
        // Across the tabs of this browser too (refreshAcrossTabs). The first one is the resume
        // started with the script, when it is still in flight.
        const started = first ? takeResume() : undefined;
        refreshing.current ??= (started ?? refreshAcrossTabs(api)).finally(() => {
          refreshing.current = undefined;
        });
        const { data } = await refreshing.current;
        if (data) {
          token.current = data.access_token;
          setSession(data);
        } else if (resuming) {
          token.current = undefined;
          setSession(undefined);
        }
      } catch {
        // The network failed: the sign-in page (or the current token until it expires) stays.
      } finally {
        setResuming(false);
      }
    }
  }, [api, session, resuming]);

  if (resuming && !session) {
    return (
      <main id="main">
        <Loading what="your session" />
      </main>
    );
  }

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
  const current = sectionOf(route);
  const scopes = scopesOfToken(session.access_token);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Vigil</span>
        <nav aria-label="Console">
          <ul>
            {SECTIONS.filter((item) => !item.scope || hasScope(scopes, item.scope)).map((item) => (
              <li key={item.section}>
                <span aria-current={current === item.section ? 'page' : undefined}>
                  <Link to={item.to}>{item.label}</Link>
                </span>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          className="link-button"
          onClick={async () => {
            // Revoke the session (and clear the refresh cookie) before forgetting the tokens.
            try {
              await api.POST('/v1/auth/logout');
            } catch {
              // Signed out locally all the same; the session ends when its refresh token expires.
            }
            token.current = undefined;
            setSession(undefined);
            navigate('/sign-in');
          }}
        >
          Sign out
        </button>
      </header>
      <Suspense
        fallback={
          <main id="main">
            <Loading what="the page" />
          </main>
        }
      >
        {page(route, api, scopes, readToken)}
      </Suspense>
    </>
  );
}
