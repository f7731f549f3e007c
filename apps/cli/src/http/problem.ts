import { CliError, ExitCode } from '../errors.ts';

/** The RFC 9457 problem document every /v1 error carries (only the fields the CLI shows). */
export interface Problem {
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { field: string; message: string }[];
  correlation_id?: string;
}

/** 401/403: 4. Other refusals of the request (400, 404, 409, 422, ...): 3. 429 and 5xx: 1. */
export function exitCodeFor(status: number): ExitCode {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status >= 400 && status < 500 && status !== 429 && status !== 408) return ExitCode.refused;
  return ExitCode.other;
}

/**
 * One readable line: status, code, what went wrong and every failing field, e.g.
 * `422 invalid_policy_config: The config is not valid for a query_control policy. (config.rules[0].pattern: not a valid regular expression)`.
 */
export function describeProblem(status: number, body: unknown): string {
  const problem = (body && typeof body === 'object' ? body : {}) as Problem;
  const head = [String(status), problem.code].filter(Boolean).join(' ');
  const text = problem.detail || problem.title || (typeof body === 'string' && body.trim() ? body.trim().slice(0, 300) : 'request failed');
  const fields = Array.isArray(problem.errors) ? problem.errors.map((e) => `${e.field}: ${e.message}`) : [];
  const hint = status === 401 ? ' (log in again with `vigil login`, or check VIGIL_API_KEY)' : '';
  const correlation = problem.correlation_id && status >= 500 ? ` [correlation id ${problem.correlation_id}]` : '';
  return `${head}: ${text.replace(/\s+/g, ' ')}${fields.length ? ` (${fields.join('; ')})` : ''}${hint}${correlation}`;
}

export class ApiError extends CliError {
  readonly status: number;
  readonly problem: unknown;
  constructor(status: number, problem: unknown, context?: string) {
    super(`${context ? `${context}: ` : ''}${describeProblem(status, problem)}`, exitCodeFor(status));
    this.status = status;
    this.problem = problem;
  }
}
