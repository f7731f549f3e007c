import type { FieldError } from '@vigil/contracts';

/** Codes shared by every service. Each feature module adds its own enum of codes. */
export enum CommonErrorCode {
  ValidationFailed = 'validation_failed',
  MalformedJson = 'malformed_json',
  UnstorableText = 'unstorable_text',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  NotFound = 'not_found',
  RouteNotFound = 'route_not_found',
  MethodNotAllowed = 'method_not_allowed',
  Unauthorized = 'unauthorized',
  Forbidden = 'insufficient_scope',
  Conflict = 'conflict',
  RateLimited = 'rate_limited',
  ServiceUnavailable = 'service_unavailable',
  UpstreamTimeout = 'upstream_timeout',
  InternalError = 'internal_error',
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function titleForStatus(status: number): string {
  return TITLES[status] ?? 'Error';
}

/**
 * The one exception type services throw. It carries an HTTP-like status and a stable code and
 * is turned into an RFC 9457 problem document at the edge (HTTP) or an RpcProblem (TCP).
 * Services never throw framework HTTP exceptions, so workers and consumers can share them.
 */
export class DomainException extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'DomainException';
  }

  get title(): string {
    return titleForStatus(this.status);
  }

  static validation(errors: FieldError[], detail = 'The request is invalid.'): DomainException {
    return new DomainException(400, CommonErrorCode.ValidationFailed, detail, errors);
  }

  static notFound(what: string, id: string, code: string = CommonErrorCode.NotFound): DomainException {
    return new DomainException(404, code, `No ${what} with id "${id}".`);
  }
}
