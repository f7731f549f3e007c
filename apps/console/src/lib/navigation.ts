import { type MouseEvent, useEffect, useState } from 'react';
import { type Route, routeFor } from './routes';

const listeners = new Set<() => void>();

/** Goes to another page of the console without reloading it. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  listeners.forEach((listener) => listener());
}

/** The current page, updated on navigation and on the browser's back and forward buttons. */
export function useRoute(): Route {
  const read = () => routeFor(window.location.pathname, window.location.search);
  const [route, setRoute] = useState<Route>(read);
  useEffect(() => {
    const update = () => setRoute(read());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** Click handler of an in-console link: a plain click navigates in place, a modified one opens as usual. */
export function followLink(event: MouseEvent<HTMLAnchorElement>): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(event.currentTarget.getAttribute('href') ?? '/');
}
