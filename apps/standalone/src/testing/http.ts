import { validatorFor } from './openapi-validator';

/**
 * A small HTTP client for end-to-end tests: JSON in, status + headers + parsed body out. Every
 * response is checked against the gateway's OpenAPI document; a disagreement fails the test.
 */
export async function http(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined = options.raw;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(options.body);
  } else if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: payload });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  const validator = await validatorFor(base);
  const problems = validator?.check(method, path, response.status, response.headers.get('content-type'), body) ?? [];
  if (problems.length) {
    throw new Error(
      `The response disagrees with the OpenAPI document (fix the @nestjs/swagger decorators or the code):\n  ${problems.join('\n  ')}\n` +
        `  body: ${JSON.stringify(body)?.slice(0, 500)}`,
    );
  }
  return { status: response.status, headers: response.headers, body };
}

export async function login(base: string, email: string, password: string): Promise<string> {
  const response = await http(base, 'POST', '/v1/auth/login', { body: { email, password } });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.access_token;
}
