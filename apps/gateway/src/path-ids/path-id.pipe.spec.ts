import { DomainException } from '@vigil/platform';
import { PathIdPipe } from './path-id.pipe';

describe('PathIdPipe', () => {
  const pipe = new PathIdPipe();
  const param = (data: string) => ({ type: 'param' as const, data });

  it('passes ids of the form Vigil makes', () => {
    expect(pipe.transform('pol_01jd6w8k2m3n4p5q6r7s8t9v0w', param('policy_id'))).toBe('pol_01jd6w8k2m3n4p5q6r7s8t9v0w');
    expect(pipe.transform('whd_missing', param('delivery_id'))).toBe('whd_missing');
  });

  it.each([
    ['policy_id', 'xyz', 'policy_not_found'],
    ['policy_id', "pol_x'; DROP TABLE policies--", 'policy_not_found'],
    ['webhook_id', 'pol_01jd6w8k2m3n4p5q6r7s8t9v0w', 'webhook_not_found'],
    ['user_id', 'nonsense', 'user_not_found'],
    ['event_id', 'evt_', 'event_not_found'],
  ])('answers %s %j with a 404 %s', (name, value, code) => {
    let thrown: unknown;
    try {
      pipe.transform(value, param(name));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainException);
    expect(thrown).toMatchObject({ status: 404, code });
  });

  it('leaves other parameters, queries and bodies alone', () => {
    expect(pipe.transform('anything', param('database_id'))).toBe('anything');
    expect(pipe.transform('xyz', { type: 'query', data: 'policy_id' })).toBe('xyz');
    expect(pipe.transform({ policy_id: 'xyz' }, { type: 'body' })).toEqual({ policy_id: 'xyz' });
  });
});
