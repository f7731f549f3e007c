import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, RPC_CREDENTIALS, RpcClient, type RpcCredentials } from '@vigil/platform';
import type { GatewayConfig } from '../gateway.service-definition';

/** One request-response client per service the gateway calls. */
@Injectable()
export class RpcClients implements OnApplicationShutdown {
  readonly auth: RpcClient;
  readonly policy: RpcClient;
  readonly events: RpcClient;
  readonly delivery: RpcClient;

  constructor(@Inject(CONFIG) config: GatewayConfig, @Inject(RPC_CREDENTIALS) credentials: RpcCredentials | null) {
    this.auth = new RpcClient('auth', config.AUTH_RPC_ADDRESS, config.RPC_TIMEOUT_MS, credentials);
    this.policy = new RpcClient('policy', config.POLICY_RPC_ADDRESS, config.RPC_TIMEOUT_MS, credentials);
    this.events = new RpcClient('event-ingest', config.EVENT_INGEST_RPC_ADDRESS, config.RPC_TIMEOUT_MS, credentials);
    this.delivery = new RpcClient('delivery', config.DELIVERY_RPC_ADDRESS, config.RPC_TIMEOUT_MS, credentials);
  }

  async onApplicationShutdown() {
    await Promise.all([this.auth, this.policy, this.events, this.delivery].map((c) => c.close()));
  }
}
