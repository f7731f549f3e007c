/** The console's pages and the addresses that open them (links Vigil sends: `/alerts/<id>`, events, policies, deliveries). */
export type Route =
  | { page: 'overview' }
  | { page: 'alerts'; search: string }
  | { page: 'alert'; id: string }
  | { page: 'live' }
  | { page: 'events'; search: string }
  | { page: 'event'; id: string }
  | { page: 'policies'; search: string }
  | { page: 'policy-new' }
  | { page: 'policy'; id: string }
  | { page: 'policy-edit'; id: string }
  | { page: 'webhooks' }
  | { page: 'webhook'; id: string }
  | { page: 'destinations' }
  | { page: 'destination'; id: string }
  | { page: 'databases' }
  | { page: 'reports' }
  | { page: 'access' }
  | { page: 'sign-in' }
  | { page: 'not-found'; path: string };

const LISTS = { live: 'live', webhooks: 'webhooks', destinations: 'destinations', databases: 'databases', reports: 'reports', access: 'access' } as const;
const SEARCHABLE = { alerts: 'alerts', events: 'events', policies: 'policies' } as const;
const ITEMS = { alerts: 'alert', events: 'event', policies: 'policy', webhooks: 'webhook', destinations: 'destination' } as const;

/** The page for a path (and its query string, which the lists keep their filters in). */
export function routeFor(pathname: string, search = ''): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { page: 'overview' };
  if (path === '/sign-in') return { page: 'sign-in' };
  if (path === '/policies/new') return { page: 'policy-new' };
  const parts = path.slice(1).split('/');
  const [section = '', id, extra, ...rest] = parts;
  if (rest.length) return { page: 'not-found', path };
  if (id === undefined) {
    if (section in SEARCHABLE) return { page: SEARCHABLE[section as keyof typeof SEARCHABLE], search };
    if (section in LISTS) return { page: LISTS[section as keyof typeof LISTS] };
    return { page: 'not-found', path };
  }
  if (!(section in ITEMS) || !id) return { page: 'not-found', path };
  let decoded: string;
  try {
    decoded = decodeURIComponent(id);
  } catch {
    return { page: 'not-found', path };
  }
  if (extra === undefined) return { page: ITEMS[section as keyof typeof ITEMS], id: decoded };
  if (section === 'policies' && extra === 'edit') return { page: 'policy-edit', id: decoded };
  return { page: 'not-found', path };
}

/** The address of an alert's page. */
export function alertPath(id: string): string {
  return `/alerts/${encodeURIComponent(id)}`;
}
export const eventPath = (id: string) => `/events/${encodeURIComponent(id)}`;
export const policyPath = (id: string) => `/policies/${encodeURIComponent(id)}`;
export const webhookPath = (id: string) => `/webhooks/${encodeURIComponent(id)}`;
export const destinationPath = (id: string) => `/destinations/${encodeURIComponent(id)}`;
