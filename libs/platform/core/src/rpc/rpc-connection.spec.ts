import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { type Server as TlsServer, TLSSocket } from 'node:tls';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, type MicroserviceOptions, Transport } from '@nestjs/microservices';
import type { INestMicroservice } from '@nestjs/common';
import { createRpcAuthority, issueRpcCertificate, RpcPatterns, type RpcCredentials } from '@vigil/contracts';
import pino from 'pino';
import { Registry } from 'prom-client';
import { ProblemDetailsFilter } from '../errors/problem.filter';
import { RpcClient } from './rpc';
import { RpcCallerGuard } from './rpc-guard';
import { rpcClientTls, rpcServerTls } from './rpc-security';

@Controller()
class PoliciesHandler {
  @MessagePattern(RpcPatterns.policies.list)
  list() {
    return { items: [], total: 0 };
  }
}

@Module({ controllers: [PoliciesHandler] })
class PoliciesModule {}

/**
 * What a call over mutual TLS costs beyond the plain transport is the record encryption, nothing
 * per call on top: a client keeps one connection for all its calls, and the listener reads the
 * caller's certificate once per connection, not per call (the identity is still the connection's
 * own: another client's certificate gets its own answer).
 */
describe('RPC over mutual TLS: per-connection work', () => {
  const authority = createRpcAuthority('rpc-connection-ca');
  const credentials = (identity: string): RpcCredentials => ({ identity, ca: authority.cert, ...issueRpcCertificate(authority, identity) });
  let microservice: INestMicroservice;
  let address: string;
  const connections: TLSSocket[] = [];
  const clients: RpcClient[] = [];
  const client = (identity: string) => {
    const c = new RpcClient('policy', address, 5_000, credentials(identity));
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    microservice = await NestFactory.createMicroservice<MicroserviceOptions>(PoliciesModule, {
      transport: Transport.TCP,
      options: { host: '127.0.0.1', port: 0, tlsOptions: rpcServerTls(credentials('policy')) },
      logger: false,
    });
    const logger = pino({ level: 'silent' });
    microservice.useGlobalGuards(new RpcCallerGuard('policy', true, logger, new Registry()));
    microservice.useGlobalFilters(new ProblemDetailsFilter(logger));
    await microservice.listen();
    const server = microservice.unwrap<TlsServer>();
    server.on('secureConnection', (socket: TLSSocket) => connections.push(socket));
    address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await microservice?.close();
  });

  it('carries every call of a client, concurrent ones included, on one connection whose certificate is read once', async () => {
    const gateway = client('gateway');
    await expect(gateway.call(RpcPatterns.policies.list, { page: 1, per_page: 20 })).resolves.toEqual({ items: [], total: 0 });
    const reads = jest.spyOn(TLSSocket.prototype, 'getPeerCertificate');
    try {
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(Array.from({ length: 16 }, () => gateway.call(RpcPatterns.policies.list, { page: 1, per_page: 20 })));
        expect(answers).toHaveLength(16);
      }
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
    expect(connections).toHaveLength(1);
  });

  it("identifies each connection by its own certificate: pg-proxy's client is refused where the gateway's is let through", async () => {
    await expect(client('pg-proxy').call(RpcPatterns.policies.list, { page: 1, per_page: 20 })).rejects.toMatchObject({ status: 403, code: 'rpc_caller_not_allowed' });
    await expect(clients[0]!.call(RpcPatterns.policies.list, { page: 1, per_page: 20 })).resolves.toEqual({ items: [], total: 0 });
    expect(connections).toHaveLength(2);
  });

  it('keeps TLS 1.3 with a verified certificate on both ends, and turns Nagle off on both', () => {
    const server = rpcServerTls(credentials('policy'));
    expect(server).toMatchObject({ minVersion: 'TLSv1.3', requestCert: true, rejectUnauthorized: true, noDelay: true });
    const tls = rpcClientTls(credentials('gateway'), 'policy');
    expect(tls).toMatchObject({ minVersion: 'TLSv1.3', noDelay: true });
    expect(tls.rejectUnauthorized).not.toBe(false);
    expect(tls.checkServerIdentity!('policy', { subject: { CN: 'auth' } } as never)).toBeInstanceOf(Error);
  });
});
