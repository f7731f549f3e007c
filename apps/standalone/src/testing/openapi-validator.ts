import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  operation: Json;
}

const SKIPPED = [/^\/health\//, /^\/metrics$/, /^\/v1\/openapi\.json$/, /^\/v1\/docs/];

/**
 * Checks real responses against the OpenAPI document the gateway serves: the status must be one
 * the operation documents, and a JSON body must match the documented schema. Every end-to-end
 * test that goes through `http()` is checked this way, so the document cannot drift from the API.
 */
export class OpenApiResponseValidator {
  private readonly operations: Operation[] = [];
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'vigil-openapi', components: document.components ?? {} });
    for (const [template, item] of Object.entries<Json>(document.paths ?? {})) {
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, operation] of Object.entries<Json>(item)) {
        if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) this.operations.push({ method: method.toUpperCase(), template, pattern, operation });
      }
    }
    // Literal paths before templated ones: /v1/events/stream before /v1/events/{event_id}.
    this.operations.sort((a, b) => (a.template.includes('{') ? 1 : 0) - (b.template.includes('{') ? 1 : 0));
  }

  find(method: string, path: string): Operation | undefined {
    return this.operations.find((o) => o.method === method && o.pattern.test(path));
  }

  /** Returns a description of every disagreement (empty when the response matches). */
  check(method: string, rawPath: string, status: number, contentType: string | null, body: unknown): string[] {
    const path = rawPath.split('?')[0]!;
    if (SKIPPED.some((s) => s.test(path))) return [];
    const operation = this.find(method, path);
    if (!operation) {
      return status === 404 || status === 405 ? [] : [`${method} ${path} answered ${status} but the OpenAPI document has no such operation`];
    }
    const responses = operation.operation.responses ?? {};
    const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    const where = `${method} ${operation.template} -> ${status}`;
    if (!response) return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
    if (!contentType || body === undefined || typeof body === 'string') return [];
    const mediaType = contentType.split(';')[0]!.trim();
    if (!/json$/.test(mediaType)) return [];
    const media = response.content?.[mediaType] ?? (mediaType === 'application/json' ? undefined : response.content?.['application/json']);
    if (!media) {
      return response.content ? [`${where}: answered ${mediaType}, documented ${Object.keys(response.content).join(', ')}`] : [];
    }
    if (!media.schema) return [];
    const key = `${where} ${mediaType}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const schema = JSON.parse(JSON.stringify(media.schema).replace(/"#\/components\//g, '"vigil-openapi#/components/'));
      validate = this.ajv.compile(schema);
      this.compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${where}: body${e.instancePath || ''} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  }
}

const byBase = new Map<string, Promise<OpenApiResponseValidator | undefined>>();

/** The validator for a running gateway, fetched once. */
export function validatorFor(base: string): Promise<OpenApiResponseValidator | undefined> {
  let validator = byBase.get(base);
  if (!validator) {
    validator = fetch(`${base}/v1/openapi.json`)
      .then(async (r) => (r.ok ? new OpenApiResponseValidator((await r.json()) as Json) : undefined))
      .catch(() => undefined);
    byBase.set(base, validator);
  }
  return validator;
}
