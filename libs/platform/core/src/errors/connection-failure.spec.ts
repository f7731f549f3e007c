import { isConnectionFailure } from './connection-failure';

describe('isConnectionFailure', () => {
  it('recognises a lost, refused or terminated connection, also inside a QueryFailedError', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    for (const error of [
      refused,
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      // TypeORM's QueryFailedError: the driver's error under `driverError`.
      Object.assign(new Error('terminating connection due to administrator command'), { driverError: terminated }),
      Object.assign(new Error('wrapped'), { cause: refused }),
    ]) {
      expect({ message: error.message, failure: isConnectionFailure(error) }).toEqual({ message: error.message, failure: true });
    }
  });

  it('does not take a failing statement or a handler error for a connection failure', () => {
    for (const error of [
      Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      new Error('poison message'),
      Object.assign(new Error('wrapped'), { driverError: Object.assign(new Error('syntax error'), { code: '42601' }) }),
      'a string',
      undefined,
      null,
    ]) {
      expect(isConnectionFailure(error)).toBe(false);
    }
  });
});
