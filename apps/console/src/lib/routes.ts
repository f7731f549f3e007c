/** The console's pages and the addresses that open them (links Vigil sends: `/alerts/<id>`). */
export type Route =
  | { page: 'overview' }
  | { page: 'alerts'; search: string }
  | { page: 'alert'; id: string }
  | { page: 'sign-in' }
  | { page: 'not-found'; path: string };

/** The page for a path (and its query string, which the alert list keeps its filters in). */
export function routeFor(pathname: string, search = ''): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { page: 'overview' };
  if (path === '/sign-in') return { page: 'sign-in' };
  if (path === '/alerts') return { page: 'alerts', search };
  const alert = /^\/alerts\/([^/]+)$/.exec(path)?.[1];
  if (alert) {
    try {
      return { page: 'alert', id: decodeURIComponent(alert) };
    } catch {
      return { page: 'not-found', path };
    }
  }
  return { page: 'not-found', path };
}

/** The address of an alert's page. */
export function alertPath(id: string): string {
  return `/alerts/${encodeURIComponent(id)}`;
}
