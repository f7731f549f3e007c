import { createLogger } from '@vigil/platform';
import type { MessageBus } from '@vigil/messaging';
import type { GatewayConfig } from '../../gateway.service-definition';
import type { RpcClients } from '../../rpc/rpc-clients';
import { EventStreamHub, type StreamListener } from './event-stream.hub';

describe('EventStreamHub listeners', () => {
  const hub = () => new EventStreamHub({} as MessageBus, {} as RpcClients, {} as GatewayConfig, createLogger('test', 'silent'));

  // A stream that removes itself from the hub when it closes, as the service's streams do.
  const listener = (on: EventStreamHub, closes: unknown[][]): StreamListener => {
    const self: StreamListener = {
      onEvent: () => undefined,
      onHeartbeat: () => undefined,
      close: (...args) => {
        closes.push(args);
        on.remove(self);
      },
    };
    return self;
  };

  it('counts the registered streams and closes every one of them, each with the given message', () => {
    const h = hub();
    const closes: unknown[][] = [];
    const streams = [listener(h, closes), listener(h, closes), listener(h, closes)];
    streams.forEach((s) => h.add(s));
    h.remove(streams[1]!);
    expect(h.size).toBe(2);
    h.closeAll('shutting_down', 'bye', 1000);
    expect(closes).toEqual([
      ['shutting_down', 'bye', 1000],
      ['shutting_down', 'bye', 1000],
    ]);
    expect(h.size).toBe(0);
  });
});
