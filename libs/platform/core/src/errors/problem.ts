import { randomUUID } from 'node:crypto';
import type { FieldError, RpcProblem } from '@vigil/contracts';
import { isRpcProblem } from '@vigil/contracts';
import { isConnectionFailure } from './connection-failure';
import { CommonErrorCode, DomainException, titleForStatus } from './domain.exception';

/** An RFC 9457 problem document with Vigil's extension members (`code`, `errors`, `error_id`). */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  correlation_id: string;
  errors?: FieldError[];
  /** Present on 500s: the id under which the failure was logged. */
  error_id?: string;
  /** Present on 429s: seconds to wait, as in the Retry-After header. */
  retry_after?: number;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemType(code: string): string {
  return `urn:vigil:problem:${code}`;
}

export interface ProblemParts {
  status: number;
  code: string;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  errorId?: string;
  cause?: unknown;
}

/**
 * Maps anything thrown to the parts of a problem document. Unknown errors become a 500 with a
 * fresh error id, so the caller can quote it and an operator can find the log line.
 */
export function toProblemParts(error: unknown): ProblemParts {
  if (error instanceof DomainException) {
    return { status: error.status, code: error.code, detail: error.message, errors: error.errors, headers: error.headers };
  }
  if (isRpcProblem(error)) {
    return { status: error.status, code: error.code, detail: error.detail, errors: error.errors };
  }
  const httpLike = error as { getStatus?: () => number; getResponse?: () => unknown; message?: string };
  if (typeof httpLike?.getStatus === 'function') {
    const status = httpLike.getStatus();
    if (status === 404) {
      return { status, code: CommonErrorCode.RouteNotFound, detail: 'No such endpoint.' };
    }
    if (status < 500) {
      return { status, code: codeForStatus(status), detail: httpLike.message ?? titleForStatus(status) };
    }
  }
  if (isConnectionFailure(error)) {
    // The database connection was lost or refused (a restart, a failover): nothing is wrong with the
    // request, and nothing of it was stored. Clients retry.
    return {
      status: 503,
      code: CommonErrorCode.ServiceUnavailable,
      detail: 'The database is unavailable; nothing was changed. Retry shortly.',
      headers: { 'Retry-After': '1' },
      errorId: randomUUID(),
      cause: error,
    };
  }
  if (isUnstorableTextError(error)) {
    return { status: 400, code: CommonErrorCode.UnstorableText, detail: 'A value holds text that cannot be stored (U+0000 or an unpaired UTF-16 surrogate).', errors: [] };
  }
  return {
    status: 500,
    code: CommonErrorCode.InternalError,
    detail: 'An unexpected error occurred. Quote the error_id when reporting it.',
    errorId: randomUUID(),
    cause: error,
  };
}

/**
 * PostgreSQL refusing U+0000 (22021, 22P05) or a lone surrogate in JSON (22P02 naming Unicode): the
 * input's fault, never a server failure. The gateway refuses such text before it gets this far;
 * this keeps any other way in (an RPC call, a path missed) from answering 500.
 */
function isUnstorableTextError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; detail?: unknown; driverError?: { code?: unknown; message?: unknown; detail?: unknown } } | null;
  const code = e?.driverError?.code ?? e?.code;
  if (code === '22021' || code === '22P05') return true;
  const text = `${String(e?.driverError?.message ?? e?.message ?? '')} ${String(e?.driverError?.detail ?? e?.detail ?? '')}`;
  return code === '22P02' && /unicode|surrogate/i.test(text);
}

function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return CommonErrorCode.ValidationFailed;
    case 401:
      return CommonErrorCode.Unauthorized;
    case 403:
      return CommonErrorCode.Forbidden;
    case 404:
      return CommonErrorCode.NotFound;
    case 405:
      return CommonErrorCode.MethodNotAllowed;
    case 409:
      return CommonErrorCode.Conflict;
    case 413:
      return CommonErrorCode.PayloadTooLarge;
    case 415:
      return CommonErrorCode.UnsupportedMediaType;
    case 429:
      return CommonErrorCode.RateLimited;
    default:
      return `http_${status}`;
  }
}

export function toProblemDocument(parts: ProblemParts, instance: string, correlationId: string): ProblemDocument {
  const doc: ProblemDocument = {
    type: problemType(parts.code),
    title: titleForStatus(parts.status),
    status: parts.status,
    detail: parts.detail,
    instance,
    code: parts.code,
    correlation_id: correlationId,
  };
  if (parts.errors?.length || parts.status === 400 || parts.status === 422) doc.errors = parts.errors ?? [];
  if (parts.errorId) doc.error_id = parts.errorId;
  const retryAfter = parts.headers?.['Retry-After'];
  if (parts.status === 429 && retryAfter !== undefined && /^\d+$/.test(retryAfter)) doc.retry_after = Number(retryAfter);
  return doc;
}

/** The form in which a service answers an RPC call that failed. */
export function toRpcProblem(parts: ProblemParts): RpcProblem & { error_id?: string } {
  return {
    status: parts.status,
    code: parts.code,
    title: titleForStatus(parts.status),
    detail: parts.detail,
    ...(parts.errors ? { errors: parts.errors } : {}),
    ...(parts.errorId ? { error_id: parts.errorId } : {}),
  };
}
