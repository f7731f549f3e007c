import { alertPath, policyPath, routeFor } from './routes';

describe('routes', () => {
  it('opens the page of every address the console answers', () => {
    expect(routeFor('/')).toEqual({ page: 'overview' });
    expect(routeFor('/sign-in')).toEqual({ page: 'sign-in' });
    expect(routeFor('/alerts', '?status=open')).toEqual({ page: 'alerts', search: '?status=open' });
    expect(routeFor('/alerts/')).toEqual({ page: 'alerts', search: '' });
    expect(routeFor('/events', '?type=x')).toEqual({ page: 'events', search: '?type=x' });
    expect(routeFor('/policies')).toEqual({ page: 'policies', search: '' });
    expect(routeFor('/policies/new')).toEqual({ page: 'policy-new' });
    for (const page of ['live', 'webhooks', 'destinations', 'databases', 'reports', 'access'] as const) expect(routeFor(`/${page}`)).toEqual({ page });
  });
  it('opens an item from the links Vigil sends', () => {
    expect(routeFor('/alerts/alt_01jabc')).toEqual({ page: 'alert', id: 'alt_01jabc' });
    expect(routeFor(alertPath('a/b c'))).toEqual({ page: 'alert', id: 'a/b c' });
    expect(routeFor('/events/evt_1')).toEqual({ page: 'event', id: 'evt_1' });
    expect(routeFor(policyPath('pol_1'))).toEqual({ page: 'policy', id: 'pol_1' });
    expect(routeFor('/policies/pol_1/edit')).toEqual({ page: 'policy-edit', id: 'pol_1' });
    expect(routeFor('/webhooks/wh_1')).toEqual({ page: 'webhook', id: 'wh_1' });
    expect(routeFor('/destinations/dst_1')).toEqual({ page: 'destination', id: 'dst_1' });
  });
  it('answers anything else, including a malformed escape, with the not-found page', () => {
    expect(routeFor('/policies/x/y')).toEqual({ page: 'not-found', path: '/policies/x/y' });
    expect(routeFor('/alerts/%E0%A4%A')).toEqual({ page: 'not-found', path: '/alerts/%E0%A4%A' });
    expect(routeFor('/live/x')).toEqual({ page: 'not-found', path: '/live/x' });
    expect(routeFor('/nowhere')).toEqual({ page: 'not-found', path: '/nowhere' });
  });
});
