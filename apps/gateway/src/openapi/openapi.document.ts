import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { OUTGOING_WEBHOOKS } from './outgoing-webhooks';

type Json = Record<string, any>;

const PROBLEM_SCHEMA = {
  type: 'object',
  description: 'RFC 9457 problem document (application/problem+json) with Vigil extension members.',
  required: ['type', 'title', 'status', 'detail', 'instance', 'code', 'correlation_id'],
  properties: {
    type: { type: 'string', description: '`urn:vigil:problem:<code>`' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'The request path' },
    code: { type: 'string', description: 'Stable snake_case machine code, e.g. `policy_name_taken`' },
    correlation_id: { type: 'string', description: 'Also in the X-Correlation-ID response header' },
    errors: {
      type: 'array',
      description: 'On 400 and 422: every offending field, as a JSON path such as `config.rules[0].pattern`',
      items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
    error_id: { type: 'string', description: 'On 500: the id under which the failure was logged' },
    retry_after: { type: 'integer', description: 'On 429: seconds to wait before retrying (the Retry-After header)' },
  },
};

const problem = (description: string, headers?: Json) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDocument' } } },
});

const OAUTH_ERROR_SCHEMA = {
  type: 'object',
  description: 'OAuth 2.0 error response (RFC 6749 section 5.2)',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' }, error_uri: { type: 'string' } },
};

const oauthError = (description: string, headers?: Json) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
});

const RATE_HEADERS = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  RateLimit: { description: 'Remaining quota (IETF RateLimit header fields)', schema: { type: 'string' } },
};

/** Responses every operation can give, added where the operation does not describe them itself. */
function commonResponses(secured: boolean, hasInput: boolean): Json {
  return {
    ...(hasInput ? { 400: problem('Malformed JSON (or nested more than 64 levels), a missing or unknown field, a wrong type, an out-of-range parameter, or text holding U+0000 or a lone surrogate (code `unstorable_text`; audit records excepted)') } : {}),
    ...(secured
      ? {
          401: problem('Missing, invalid, expired or revoked credentials', { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer error="invalid_token"' } }),
          403: problem('Valid credentials without the scope this operation needs', { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer error="insufficient_scope", scope="<needed>"' } }),
        }
      : {}),
    429: problem('Too many requests; back off exponentially and retry', RATE_HEADERS),
    500: problem('Unexpected error; the problem carries an error_id'),
    503: problem('A service behind the gateway is unavailable', { 'Retry-After': RATE_HEADERS['Retry-After'] }),
    504: problem('A service behind the gateway did not answer in time', { 'Retry-After': RATE_HEADERS['Retry-After'] }),
  };
}

/**
 * The /oauth endpoints answer errors in the RFC 6749 form (`error`, `error_description`), `application/json`; the
 * authorization endpoint (the page and its form's submission) shows its non-redirectable errors to
 * the browser as an HTML page.
 */
function oauthErrors(path: string, responses: Json): void {
  const schema = {
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'string', description: 'RFC 6749 error code, e.g. `invalid_grant`' }, error_description: { type: 'string' } },
  };
  for (const [status, response] of Object.entries<Json>(responses)) {
    if (Number(status) < 400) continue;
    response.content =
      path === '/oauth/authorize' && status === '400' ? { 'text/html': { schema: { type: 'string' } } } : { 'application/json': { schema } };
  }
}

/** OpenAPI 3.1 has no `nullable`: turn it into a `null` member of `type` (or of a `oneOf`). */
function toOpenApi31(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(toOpenApi31);
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema.nullable === true) {
    delete schema.nullable;
    if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
    else if (schema.$ref || schema.allOf || schema.oneOf) {
      const copy = { ...schema };
      for (const key of Object.keys(schema)) delete schema[key];
      schema.oneOf = [copy.$ref ? { $ref: copy.$ref } : copy, { type: 'null' }];
      if (copy.description) schema.description = copy.description;
    }
  } else if (schema.nullable === false) delete schema.nullable;
  for (const value of Object.values(schema)) toOpenApi31(value);
}

export function buildOpenApiDocument(app: INestApplication, version: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Vigil API')
    .setDescription(
      'Database audit service: security policies, audit events (REST, Server-Sent Events, webhooks), alerts, ' +
        'compliance reports and access control. Every error is an RFC 9457 problem document. Each operation names ' +
        'the scope it needs in `x-required-scope`; `admin` grants every scope.',
    )
    .setVersion(version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key or an access token (JWT)' })
    .build();
  const document = SwaggerModule.createDocument(app, config) as Json;
  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas.ProblemDocument = PROBLEM_SCHEMA;
  document.components.schemas.OAuthError = OAUTH_ERROR_SCHEMA;
  document.webhooks = OUTGOING_WEBHOOKS;

  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const scope = operation['x-required-scope'];
      if (!scope) operation.security = [];
      const hasInput = Boolean(operation.requestBody) || (operation.parameters ?? []).length > 0;
      const common = commonResponses(Boolean(scope), hasInput);
      // /oauth/* answers its own errors in the RFC 6749 form, as OAuth clients expect; /v1 in RFC 9457.
      const oauth = path.startsWith('/oauth/');
      // An error response declared on an operation keeps its description; its body is always a
      // problem document (the filter guarantees it), with the common headers.
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
        if (Number(status) < 400) continue;
        if (oauth) {
          if (!response.content) response.content = oauthError(response.description ?? '').content;
          continue;
        }
        const problemContent = problem(response.description ?? '').content;
        const declared = response.content?.['application/problem+json'] ?? response.content?.['application/json'];
        response.content = { 'application/problem+json': declared?.schema ? declared : problemContent['application/problem+json'] };
        if (!response.headers && common[status]?.headers) response.headers = common[status].headers;
      }
      operation.responses = { ...common, ...operation.responses };
      if (path.startsWith('/oauth/')) oauthErrors(path, operation.responses);
      operation.responses = Object.fromEntries(Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  toOpenApi31(document);
  return document as OpenAPIObject;
}

/** Serves the document at /v1/openapi.json and a browsable page at /v1/docs. */
export function setupOpenApi(app: INestApplication, version: string): OpenAPIObject {
  const document = buildOpenApiDocument(app, version);
  SwaggerModule.setup('v1/docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    raw: ['json'],
    customSiteTitle: 'Vigil API',
    swaggerOptions: { persistAuthorization: true },
  });
  return document;
}
