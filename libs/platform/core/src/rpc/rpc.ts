import {
  type CallHandler,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { ClientProxyFactory, type ClientProxy, Transport } from '@nestjs/microservices';
import { isRpcProblem } from '@vigil/contracts';
import { firstValueFrom, Observable, timeout, TimeoutError } from 'rxjs';
import { CommonErrorCode, DomainException } from '../errors/domain.exception';
import { currentCorrelationId, withCorrelationId } from '../logging/correlation';

/** What travels over the TCP transport: the payload plus the caller's correlation id. */
export interface RpcMessage<T> {
  meta: { correlation_id?: string };
  data: T;
}

export function parseAddress(address: string): { host: string; port: number } {
  const i = address.lastIndexOf(':');
  return { host: address.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(address.slice(i + 1)) };
}

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'ETIMEDOUT']);

/**
 * Request-response to one service over @nestjs/microservices TCP. A slow service becomes a 504
 * and an unreachable one a 503, both as problem documents; a service's own problem keeps its
 * status and code.
 */
export class RpcClient {
  private readonly proxy: ClientProxy;

  constructor(
    readonly service: string,
    address: string,
    private readonly timeoutMs: number,
  ) {
    this.proxy = ClientProxyFactory.create({ transport: Transport.TCP, options: parseAddress(address) });
  }

  async call<T, R>(pattern: string, data: T, timeoutMs = this.timeoutMs): Promise<R> {
    const message: RpcMessage<T> = { meta: { correlation_id: currentCorrelationId() }, data };
    try {
      return await firstValueFrom(this.proxy.send<R, RpcMessage<T>>(pattern, message).pipe(timeout(timeoutMs)));
    } catch (error) {
      throw this.translate(error);
    }
  }

  private translate(error: unknown): unknown {
    if (error instanceof TimeoutError) {
      return new DomainException(
        504,
        CommonErrorCode.UpstreamTimeout,
        `The ${this.service} service did not answer in time.`,
        undefined,
        { 'Retry-After': '1' },
      );
    }
    if (isRpcProblem(error)) return new DomainException(error.status, error.code, error.detail, error.errors);
    const code = (error as { code?: string })?.code;
    if (code && CONNECTION_ERRORS.has(code)) {
      return new DomainException(
        503,
        CommonErrorCode.ServiceUnavailable,
        `The ${this.service} service is unavailable.`,
        undefined,
        { 'Retry-After': '1' },
      );
    }
    return error;
  }

  async close(): Promise<void> {
    await this.proxy.close();
  }
}

/** Extracts `data` from an RpcMessage in a @MessagePattern handler. */
export const RpcPayload = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const message = ctx.switchToRpc().getData<RpcMessage<unknown>>();
  return message?.data;
});

/** Runs each RPC handler under the caller's correlation id, so its logs and events carry it. */
@Injectable()
export class RpcCorrelationInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'rpc') return next.handle();
    const message = ctx.switchToRpc().getData<RpcMessage<unknown>>();
    return new Observable((subscriber) =>
      withCorrelationId(message?.meta?.correlation_id, () => next.handle().subscribe(subscriber)),
    );
  }
}
