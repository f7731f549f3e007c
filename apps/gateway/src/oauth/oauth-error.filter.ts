import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import { toProblemParts } from '@vigil/platform';
import type { Response } from 'express';

/** The /oauth endpoints answer errors in the RFC 6749 form, `{error, error_description}`. */
@Catch()
export class OAuthErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const parts = toProblemParts(exception);
    const error =
      parts.status === 401 ? 'invalid_token'
      : parts.status === 429 ? 'rate_limited'
      : parts.status === 503 || parts.status === 504 ? 'temporarily_unavailable'
      : parts.status >= 500 ? 'server_error'
      : 'invalid_request';
    if (res.headersSent) return void res.end();
    for (const [name, value] of Object.entries(parts.headers ?? {})) res.setHeader(name, value);
    res.setHeader('Cache-Control', 'no-store');
    res.status(parts.status).json({ error, error_description: parts.status >= 500 && parts.status < 503 ? 'An unexpected error occurred.' : parts.detail });
  }
}
