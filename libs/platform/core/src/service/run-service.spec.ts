import { createServer, type Server } from 'node:net';
import { Injectable, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { startService } from './run-service';
import { ShutdownTimedOut } from './shutdown';
import type { ServiceDefinition } from './service-context';

/**
 * Stands for what a service's modules open (pools built by providers, consumers and timers started
 * in init hooks) and close in their shutdown hooks.
 */
class Resources {
  created = 0;
  initialised = 0;
  closed = 0;
}

function definitionWith(resources: Resources, options: { rpc?: boolean } = {}): ServiceDefinition {
  @Injectable()
  class Holder implements OnModuleInit, OnApplicationShutdown {
    constructor() {
      resources.created++;
    }
    onModuleInit() {
      resources.initialised++;
    }
    onApplicationShutdown() {
      resources.closed++;
    }
  }
  @Module({ providers: [Holder] })
  class RootModule {}
  return {
    name: 'auth',
    configSpec: {},
    defaultPort: 0,
    ...(options.rpc ? { rpcPort: 0 } : {}),
    usesDatabase: false,
    rootModule: () => RootModule,
  };
}

async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

describe('startService', () => {
  let occupier: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => occupier?.close(resolve) ?? resolve(undefined));
    occupier = undefined;
  });

  it('starts on a free port and closes the modules on stop', async () => {
    const resources = new Resources();
    const running = await startService(definitionWith(resources), { LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', RPC_INSECURE: 'true' });
    expect(running.httpPort).toBeGreaterThan(0);
    expect({ ...resources }).toEqual({ created: 1, initialised: 1, closed: 0 });
    await running.stop();
    expect({ ...resources }).toEqual({ created: 1, initialised: 1, closed: 1 });
  });

  it('gives up a stop that outlasts SHUTDOWN_TIMEOUT_MS with ShutdownTimedOut, naming the step it waits on', async () => {
    let release: () => void = () => undefined;
    @Injectable()
    class Stuck implements OnApplicationShutdown {
      onApplicationShutdown() {
        return new Promise<void>((resolve) => (release = resolve));
      }
    }
    @Module({ providers: [Stuck] })
    class StuckModule {}
    const running = await startService(
      { name: 'auth', configSpec: {}, defaultPort: 0, usesDatabase: false, rootModule: () => StuckModule },
      { LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', RPC_INSECURE: 'true', SHUTDOWN_TIMEOUT_MS: '1000' },
    );
    try {
      await expect(running.stop()).rejects.toBeInstanceOf(ShutdownTimedOut);
      // What the error log names: the step still pending.
      expect(running.context.shutdown.report().map((w) => w.step)).toEqual(['module shutdown hooks']);
    } finally {
      release();
    }
  });

  it('closes the app when its HTTP port is taken, then rethrows', async () => {
    const taken = await takenPort();
    occupier = taken.server;
    const resources = new Resources();
    await expect(
      startService(definitionWith(resources), { LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: String(taken.port), RPC_INSECURE: 'true' }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    // listen() initialised the modules before binding.
    expect({ ...resources }).toEqual({ created: 1, initialised: 1, closed: 1 });
  });

  it('closes the app when its RPC port is taken, then rethrows', async () => {
    const taken = await takenPort();
    occupier = taken.server;
    const resources = new Resources();
    await expect(
      startService(definitionWith(resources, { rpc: true }), {
        LOG_LEVEL: 'silent',
        HOST: '127.0.0.1',
        PORT: '0',
        RPC_HOST: '127.0.0.1',
        RPC_PORT: String(taken.port),
        RPC_INSECURE: 'true',
      }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    // The RPC server binds before the modules are initialised, but the providers exist already.
    expect({ ...resources }).toEqual({ created: 1, initialised: 0, closed: 1 });
  });
});
