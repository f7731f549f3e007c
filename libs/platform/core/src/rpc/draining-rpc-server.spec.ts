import { ServerTCP } from '@nestjs/microservices';
import { DrainingRpcServer } from './draining-rpc-server';

describe('DrainingRpcServer routes', () => {
  const ours = new DrainingRpcServer({ host: '127.0.0.1', port: 0 });
  // Nest's own routing (protected on ServerTCP).
  const nest = new ServerTCP({ host: '127.0.0.1', port: 0 }) as unknown as { getRouteFromPattern(pattern: string): string };

  it('routes every pattern form as Nest does', () => {
    const patterns = [
      'policies.list',
      'auth.api-keys.create',
      'events.search',
      'x',
      'true',
      'null',
      'false ',
      'trueish.pattern',
      'nullable',
      '{"cmd":"sum"}',
      '{"b":1,"a":"x"}',
      '"quoted"',
      '42',
      '[1,2]',
      '',
      ' policies.list',
    ];
    for (const pattern of patterns) expect([pattern, ours.getRouteFromPattern(pattern)]).toEqual([pattern, nest.getRouteFromPattern(pattern)]);
  });

  it('routes a dotted pattern without trying it as JSON (a throw per message)', () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(ours.getRouteFromPattern('policies.list')).toBe('policies.list');
      expect(parse).not.toHaveBeenCalled();
      ours.getRouteFromPattern('{"cmd":"sum"}');
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });
});
