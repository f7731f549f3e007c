import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Observable, throwError } from 'rxjs';
import { currentCorrelationId } from '../logging/correlation';
import type { Logger } from '../logging/logger';
import { PROBLEM_CONTENT_TYPE, toProblemDocument, toProblemParts, toRpcProblem, type ProblemParts } from './problem';

export function writeProblem(req: Request, res: Response, parts: ProblemParts, logger: Logger): void {
  const correlationId = String(res.getHeader('X-Correlation-ID') ?? currentCorrelationId() ?? '');
  if (parts.status >= 500) {
    logger.error({ err: parts.cause, error_id: parts.errorId, path: req.path, code: parts.code }, 'request failed');
  }
  const doc = toProblemDocument(parts, req.originalUrl.split('?')[0] ?? req.path, correlationId);
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(parts.headers ?? {})) res.setHeader(name, value);
  res.status(doc.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(doc));
}

/**
 * Every error leaves a service in one shape: an RFC 9457 problem document on HTTP, an RpcProblem
 * (the same fields) on the TCP transport, so the gateway can pass it on with status and code.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> | void {
    const parts = toProblemParts(exception);
    if (host.getType() === 'rpc') {
      if (parts.status >= 500) this.logger.error({ err: parts.cause, error_id: parts.errorId }, 'rpc handler failed');
      return throwError(() => toRpcProblem(parts));
    }
    const http = host.switchToHttp();
    writeProblem(http.getRequest<Request>(), http.getResponse<Response>(), parts, this.logger);
  }
}
