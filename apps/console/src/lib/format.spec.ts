import { absoluteTime, describeProblem, relativeTime } from './format';

describe('time formatting', () => {
  const now = new Date('2026-11-25T12:00:00Z');

  it('says how long ago or how soon, in the largest whole unit', () => {
    expect(relativeTime('2026-11-25T11:57:00Z', now)).toBe('3 minutes ago');
    expect(relativeTime('2026-11-25T14:00:00Z', now)).toBe('in 2 hours');
    expect(relativeTime('2026-11-24T12:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2026-11-25T11:59:58Z', now)).toBe('now');
  });

  it('shows an unreadable time as it came', () => {
    expect(relativeTime('soon', now)).toBe('soon');
    expect(absoluteTime('soon')).toBe('soon');
  });

  it('shows an absolute time in UTC to the second', () => {
    expect(absoluteTime('2026-11-25T16:18:50.123+01:00')).toBe('2026-11-25 15:18:50 UTC');
  });
});

describe('describeProblem', () => {
  it('shows a problem document by its detail, its field errors and its correlation id', () => {
    expect(
      describeProblem({ type: 'urn:vigil:problem:validation_failed', title: 'Bad Request', status: 400, detail: 'The request is invalid', correlation_id: 'c-1', errors: [{ field: 'email', message: 'must be an email' }] }),
    ).toEqual({ message: 'The request is invalid', fields: ['email: must be an email'], reference: 'c-1' });
  });

  it('falls back to the title, then to the status', () => {
    expect(describeProblem({ title: 'Not Found', status: 404 }).message).toBe('Not Found');
    expect(describeProblem(undefined, 502)).toEqual({ message: 'Request failed with status 502.', fields: [] });
  });

  it('says when the server could not be reached', () => {
    expect(describeProblem(new TypeError('Failed to fetch')).message).toBe('The server could not be reached (Failed to fetch).');
  });
});
