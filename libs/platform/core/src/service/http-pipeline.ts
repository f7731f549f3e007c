import { randomUUID } from 'node:crypto';
import { context, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import type { Registry } from 'prom-client';
import { CommonErrorCode } from '../errors/domain.exception';
import { writeProblem } from '../errors/problem.filter';
import { sanitizeCorrelationId, withCorrelationId } from '../logging/correlation';
import type { Logger } from '../logging/logger';
import { httpMetrics } from '../metrics/metrics';
import { beginSpan, extractTraceContext } from '../tracing/spans';
import { tracingEnabled } from '../tracing/tracing';

/**
 * First middleware of every service: takes (or mints) the correlation id, echoes it in
 * X-Correlation-ID, runs the request under it, and records a log line and latency per request.
 * With tracing on, each request (but health and metrics) is a server span, the child of the
 * caller's `traceparent` if it sent one; it is named after the route template, never the raw path.
 */
export function correlationMiddleware(logger: Logger, registry: Registry, tracer?: Tracer) {
  const { duration } = httpMetrics(registry);
  return (req: Request, res: Response, next: NextFunction) => {
    const correlationId = sanitizeCorrelationId(req.header('x-correlation-id')) ?? randomUUID();
    res.setHeader('X-Correlation-ID', correlationId);
    const started = process.hrtime.bigint();
    const observed = !req.path.startsWith('/health');
    const traced = observed && tracingEnabled()
      ? beginSpan(req.method, {
          tracer,
          kind: SpanKind.SERVER,
          parent: extractTraceContext(req.headers),
          attributes: { 'http.request.method': req.method, 'vigil.correlation_id': correlationId },
        })
      : undefined;
    if (traced) {
      // 'close' comes after 'finish', and also when the client abandons the request.
      res.on('close', () => {
        const route = (req.route as { path?: string } | undefined)?.path;
        if (route) {
          traced.span.updateName(`${req.method} ${req.baseUrl}${route}`);
          traced.span.setAttribute('http.route', `${req.baseUrl}${route}`);
        }
        traced.span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 500) traced.span.setStatus({ code: SpanStatusCode.ERROR });
        traced.span.end();
      });
    }
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (req.route as { path?: string } | undefined)?.path;
      const routeLabel = route ? `${req.baseUrl}${route}` : 'unmatched';
      duration.observe({ method: req.method, route: routeLabel, status: String(res.statusCode) }, seconds);
      if (observed) {
        logger.info(
          { correlation_id: correlationId, method: req.method, route: routeLabel, status: res.statusCode, ms: Math.round(seconds * 1000) },
          'request',
        );
      }
    });
    withCorrelationId(correlationId, () => (traced ? context.with(traced.context, next) : next()));
  };
}

/**
 * Deepest nesting of arrays and objects a JSON body may have. Validation and transformation recurse
 * over a body, and a body of 1 MiB can nest a hundred thousand levels: far past any request this
 * API takes (audit record details included), and enough to exhaust the stack.
 */
export const MAX_JSON_DEPTH = 64;

/** True when the value nests arrays or objects deeper than `max` levels (checked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length) {
    const { value: v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const inner of Array.isArray(v) ? v : Object.values(v)) if (inner !== null && typeof inner === 'object') stack.push({ value: inner, depth: depth + 1 });
  }
  return false;
}

/**
 * JSON and form bodies, with parse and size errors answered as problem documents (the stock
 * body parser answers them as HTML), and JSON nested deeper than MAX_JSON_DEPTH refused.
 */
export function bodyParsers(logger: Logger, jsonLimit: string) {
  const json = express.json({ limit: jsonLimit, strict: false });
  const form = express.urlencoded({ extended: false, limit: '64kb' });
  return (req: Request, res: Response, next: NextFunction) => {
    const parser = req.is('application/x-www-form-urlencoded') ? form : json;
    parser(req, res, (error?: unknown) => {
      if (!error) {
        if (nestedDeeperThan(req.body, MAX_JSON_DEPTH)) {
          return writeProblem(
            req,
            res,
            { status: 400, code: CommonErrorCode.ValidationFailed, detail: `The body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`, errors: [{ field: '$', message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }] },
            logger,
          );
        }
        return next();
      }
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') {
        return writeProblem(req, res, { status: 413, code: CommonErrorCode.PayloadTooLarge, detail: `The body is larger than ${jsonLimit}.` }, logger);
      }
      if (type === 'entity.parse.failed') {
        return writeProblem(req, res, { status: 400, code: CommonErrorCode.MalformedJson, detail: 'The body is not valid JSON.', errors: [] }, logger);
      }
      return writeProblem(req, res, { status: 400, code: CommonErrorCode.ValidationFailed, detail: 'The body could not be read.', errors: [] }, logger);
    });
  };
}
