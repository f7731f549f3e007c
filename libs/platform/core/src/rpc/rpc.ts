import {
  type CallHandler,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { context, SpanKind, type Tracer } from '@opentelemetry/api';
import { ClientProxyFactory, type ClientProxy, Transport } from '@nestjs/microservices';
import { isRpcProblem } from '@vigil/contracts';
import { firstValueFrom, Observable, timeout, TimeoutError } from 'rxjs';
import { CommonErrorCode, DomainException } from '../errors/domain.exception';
import { currentCorrelationId, withCorrelationId } from '../logging/correlation';
import { currentRequestOrigin, type RequestOrigin, sanitizeRequestOrigin, withRequestOrigin } from '../audit/request-origin';
import { beginSpan, extractTraceContext, injectTraceContext, markSpanFailed } from '../tracing/spans';
import { tracingEnabled } from '../tracing/tracing';
import { type RpcCredentials, rpcClientTls } from './rpc-security';

/**
 * What travels over the TCP transport: the payload plus the caller's correlation id, the request's
 * origin (actor, client address, user agent: what vigil.* events record) and, with tracing on, its
 * W3C trace context (`traceparent`, `tracestate`).
 */
export interface RpcMessage<T> {
  meta: { correlation_id?: string; origin?: RequestOrigin; traceparent?: string; tracestate?: string };
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
  private readonly address: { host: string; port: number };

  /**
   * `credentials`: this service's RPC identity (mutual TLS: the server must present `service`'s
   * certificate); null only with RPC_INSECURE (plain TCP).
   */
  constructor(
    readonly service: string,
    address: string,
    private readonly timeoutMs: number,
    credentials: RpcCredentials | null,
  ) {
    this.address = parseAddress(address);
    this.proxy = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: { ...this.address, ...(credentials ? { tlsOptions: rpcClientTls(credentials, service) } : {}) },
    });
  }

  async call<T, R>(pattern: string, data: T, timeoutMs = this.timeoutMs): Promise<R> {
    const origin = currentRequestOrigin();
    const message: RpcMessage<T> = { meta: { correlation_id: currentCorrelationId(), ...(origin ? { origin } : {}) }, data };
    // A client span only inside traced work: background calls do not start traces of their own.
    const traced = beginSpan(pattern, {
      kind: SpanKind.CLIENT,
      childOnly: true,
      attributes: { 'rpc.system': 'nestjs_tcp', 'rpc.service': this.service, 'rpc.method': pattern, 'server.address': this.address.host, 'server.port': this.address.port },
    });
    if (traced) injectTraceContext(message.meta, traced.context);
    try {
      return await firstValueFrom(this.proxy.send<R, RpcMessage<T>>(pattern, message).pipe(timeout(timeoutMs)));
    } catch (error) {
      const translated = this.translate(error);
      if (traced) markSpanFailed(traced.span, translated);
      throw translated;
    } finally {
      traced?.span.end();
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
    if (isRpcProblem(error)) {
      // A service that is up but cannot reach its database answers 503: the client retries.
      return new DomainException(error.status, error.code, error.detail, error.errors, error.status === 503 ? { 'Retry-After': '1' } : undefined);
    }
    const code = (error as { code?: string })?.code;
    // A TLS failure (the server's certificate is not the expected service's, or ours is refused) is
    // an unavailable service to the caller; the reason is in the logs of both sides.
    // (The TCP client reports a connection the server closed, e.g. after refusing our certificate,
    // as a bare "Connection closed".)
    const closed = error instanceof Error && error.message === 'Connection closed';
    if (closed || (code && (CONNECTION_ERRORS.has(code) || /^(ERR_TLS_|ERR_SSL_)|CERT/.test(code)))) {
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

/**
 * Runs each RPC handler under the caller's correlation id and request origin, so its logs and
 * events carry them, and, with tracing on, in a server span that is the child of the caller's
 * client span.
 */
@Injectable()
export class RpcCorrelationInterceptor implements NestInterceptor {
  constructor(private readonly tracer?: Tracer) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'rpc') return next.handle();
    const message = ctx.switchToRpc().getData<RpcMessage<unknown>>();
    const pattern = ctx.switchToRpc().getContext<{ getPattern?(): string }>()?.getPattern?.() ?? ctx.getHandler().name;
    const traced = tracingEnabled()
      ? beginSpan(String(pattern), {
          tracer: this.tracer,
          kind: SpanKind.SERVER,
          parent: extractTraceContext(message?.meta),
          attributes: { 'rpc.system': 'nestjs_tcp', 'rpc.method': String(pattern) },
        })
      : undefined;
    const origin = sanitizeRequestOrigin(message?.meta?.origin);
    const handled = new Observable((subscriber) =>
      withCorrelationId(message?.meta?.correlation_id, () =>
        withRequestOrigin(origin, () =>
          traced ? context.with(traced.context, () => next.handle().subscribe(subscriber)) : next.handle().subscribe(subscriber),
        ),
      ),
    );
    if (!traced) return handled;
    return new Observable((subscriber) => {
      const inner = handled.subscribe({
        next: (value) => subscriber.next(value),
        error: (error: unknown) => {
          markSpanFailed(traced.span, error);
          traced.span.end();
          subscriber.error(error);
        },
        complete: () => {
          traced.span.end();
          subscriber.complete();
        },
      });
      return () => inner.unsubscribe();
    });
  }
}
