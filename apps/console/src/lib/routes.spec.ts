import { alertPath, routeFor } from './routes';

describe('routes', () => {
  it('opens the page of every address the console answers', () => {
    expect(routeFor('/')).toEqual({ page: 'overview' });
    expect(routeFor('/sign-in')).toEqual({ page: 'sign-in' });
    expect(routeFor('/alerts', '?status=open')).toEqual({ page: 'alerts', search: '?status=open' });
    expect(routeFor('/alerts/')).toEqual({ page: 'alerts', search: '' });
  });

  it('opens an alert from the link Vigil sends (/alerts/<id>)', () => {
    expect(routeFor('/alerts/alt_01jabc')).toEqual({ page: 'alert', id: 'alt_01jabc' });
    expect(routeFor(alertPath('a/b c'))).toEqual({ page: 'alert', id: 'a/b c' });
  });

  it('answers anything else, including a malformed escape, with the not-found page', () => {
    expect(routeFor('/policies/x/y')).toEqual({ page: 'not-found', path: '/policies/x/y' });
    expect(routeFor('/alerts/%E0%A4%A')).toEqual({ page: 'not-found', path: '/alerts/%E0%A4%A' });
  });
});
