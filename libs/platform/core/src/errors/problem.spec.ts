import { NotFoundException } from '@nestjs/common';
import { DomainException } from './domain.exception';
import { toProblemDocument, toProblemParts } from './problem';

describe('problem documents', () => {
  it('keep a domain exception’s status, code, field errors and headers', () => {
    const parts = toProblemParts(DomainException.validation([{ field: 'events[0].type', message: 'bad' }]));
    const doc = toProblemDocument(parts, '/v1/events/ingest', 'corr-1');
    expect(doc).toEqual({
      type: 'urn:vigil:problem:validation_failed',
      title: 'Bad Request',
      status: 400,
      detail: 'The request is invalid.',
      instance: '/v1/events/ingest',
      code: 'validation_failed',
      correlation_id: 'corr-1',
      errors: [{ field: 'events[0].type', message: 'bad' }],
    });
  });

  it('pass an RPC problem from a service through unchanged', () => {
    const parts = toProblemParts({ status: 409, code: 'policy_name_taken', title: 'Conflict', detail: 'taken' });
    expect(parts).toMatchObject({ status: 409, code: 'policy_name_taken', detail: 'taken' });
  });

  it('turn an unknown route into route_not_found', () => {
    expect(toProblemParts(new NotFoundException()).code).toBe('route_not_found');
  });

  it('hide unexpected errors behind a 500 with an error id', () => {
    const parts = toProblemParts(new Error('connection string postgres://user:pw@host'));
    const doc = toProblemDocument(parts, '/x', 'c');
    expect(doc.status).toBe(500);
    expect(doc.error_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(doc)).not.toContain('postgres://');
  });

  it('answer a lost or refused database connection as a 503 with Retry-After, not a 500', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const typeormWrapped = Object.assign(new Error('QueryFailedError'), { driverError: terminated });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (const error of [terminated, typeormWrapped, refused, new Error('Connection terminated unexpectedly')]) {
      expect(toProblemParts(error)).toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'Retry-After': '1' } });
    }
    // A statement's own failure stays a 500.
    expect(toProblemParts(Object.assign(new Error('division by zero'), { code: '22012' })).status).toBe(500);
  });

  it('answer PostgreSQL refusing U+0000 or a lone surrogate as a 400, not a 500', () => {
    const nul = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    expect(toProblemParts(nul)).toMatchObject({ status: 400, code: 'unstorable_text' });
    const escape = { message: 'query failed', driverError: { code: '22P05', message: 'unsupported Unicode escape sequence' } };
    expect(toProblemParts(escape)).toMatchObject({ status: 400, code: 'unstorable_text' });
    const surrogate = Object.assign(new Error('invalid input syntax for type json'), { code: '22P02', detail: 'Unicode low surrogate must follow a high surrogate.' });
    expect(toProblemParts(surrogate)).toMatchObject({ status: 400, code: 'unstorable_text' });
    const otherSyntax = Object.assign(new Error('invalid input syntax for type uuid: "x"'), { code: '22P02' });
    expect(toProblemParts(otherSyntax).status).toBe(500);
  });

  it('repeat a 429\'s Retry-After as retry_after, and only on 429', () => {
    const limited = toProblemDocument(toProblemParts(new DomainException(429, 'rate_limited', 'slow down', undefined, { 'Retry-After': '7' })), '/x', 'c');
    expect(limited.retry_after).toBe(7);
    const unavailable = toProblemDocument(toProblemParts(new DomainException(503, 'unavailable', 'later', undefined, { 'Retry-After': '7' })), '/x', 'c');
    expect(unavailable).not.toHaveProperty('retry_after');
  });
});
