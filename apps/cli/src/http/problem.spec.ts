import { ExitCode } from '../errors.ts';
import { retryDelayMs } from './api-client.ts';
import { ApiError, describeProblem, exitCodeFor } from './problem.ts';

describe('API errors', () => {
  it('map statuses to the documented exit codes', () => {
    expect([401, 403].map(exitCodeFor)).toEqual([ExitCode.auth, ExitCode.auth]);
    expect([400, 404, 409, 422].map(exitCodeFor)).toEqual([3, 3, 3, 3]);
    expect([429, 500, 502, 503].map(exitCodeFor)).toEqual([1, 1, 1, 1]);
  });

  it('read as one line with the code, the detail and every failing field', () => {
    const problem = {
      type: 'about:blank',
      title: 'Unprocessable Entity',
      status: 422,
      detail: 'The config is not valid\nfor a query_control policy.',
      code: 'invalid_policy_config',
      errors: [
        { field: 'config.rules[0].pattern', message: 'not a valid regular expression' },
        { field: 'config.rules[1].action', message: 'must be block' },
      ],
      correlation_id: 'c-1',
    };
    expect(describeProblem(422, problem)).toBe(
      '422 invalid_policy_config: The config is not valid for a query_control policy. (config.rules[0].pattern: not a valid regular expression; config.rules[1].action: must be block)',
    );
    expect(new ApiError(422, problem, 'policy "p" (create)').message).toBe(`policy "p" (create): ${describeProblem(422, problem)}`);
  });

  it('hint at logging in on 401, name the correlation id of a server error, and cope with a body that is not a problem', () => {
    expect(describeProblem(401, { code: 'invalid_token', detail: 'Expired.' })).toBe('401 invalid_token: Expired. (log in again with `vigil login`, or check VIGIL_API_KEY)');
    expect(describeProblem(500, { code: 'internal_error', detail: 'Unexpected.', correlation_id: 'abc' })).toBe('500 internal_error: Unexpected. [correlation id abc]');
    expect(describeProblem(502, '<html>Bad Gateway</html>')).toBe('502: <html>Bad Gateway</html>');
    expect(describeProblem(504, undefined)).toBe('504: request failed');
  });

  it('wait as Retry-After says (at most 60 s), else 1, 2, 4, 8 s', () => {
    expect(retryDelayMs('3', 0)).toBe(3000);
    expect(retryDelayMs('600', 0)).toBe(60_000);
    expect([0, 1, 2, 3].map((attempt) => retryDelayMs(null, attempt))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs('Wed, 21 Oct 2015 07:28:00 GMT', 1)).toBe(2000);
  });
});
