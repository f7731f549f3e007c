import { commonConfigSpec, ConfigError, env, loadConfig } from './config';

const spec = {
  PORT: env.port({ default: 3000 }),
  DATABASE_URL: env.url(['postgres']),
  KAFKA_BROKERS: env.list({ optional: true, item: /^[a-z0-9.]+:\d+$/, itemDescription: 'host:port' }),
  VERBOSE: env.bool({ default: false }),
  MODE: env.oneOf(['a', 'b'] as const, { default: 'a' }),
};

describe('loadConfig', () => {
  it('applies defaults and converts types', () => {
    expect(loadConfig('svc', spec, { DATABASE_URL: 'postgres://x/y', KAFKA_BROKERS: 'k1:9092, k2:9092', VERBOSE: 'yes' })).toEqual({
      PORT: 3000,
      DATABASE_URL: 'postgres://x/y',
      KAFKA_BROKERS: ['k1:9092', 'k2:9092'],
      VERBOSE: true,
      MODE: 'a',
    });
  });

  it('reports every bad variable by name in one error', () => {
    let error: unknown;
    try {
      loadConfig('svc', spec, { PORT: '70000', DATABASE_URL: 'mysql://x', KAFKA_BROKERS: 'nope', VERBOSE: 'maybe', MODE: 'c' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.variable);
    expect(problems).toEqual(['PORT', 'DATABASE_URL', 'KAFKA_BROKERS', 'VERBOSE', 'MODE']);
    expect((error as ConfigError).message).toContain('PORT must be an integer from 0 to 65535 (got "70000")');
  });

  it('says a required variable is required', () => {
    expect(() => loadConfig('svc', spec, {})).toThrow(/DATABASE_URL is required/);
  });

  it('accepts LOG_FORMAT auto (the default), json or pretty and names any other value', () => {
    expect(loadConfig('svc', commonConfigSpec, {}).LOG_FORMAT).toBe('auto');
    expect(loadConfig('svc', commonConfigSpec, { LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(() => loadConfig('svc', commonConfigSpec, { LOG_FORMAT: 'text' })).toThrow('LOG_FORMAT must be one of auto, json, pretty (got "text")');
  });
});
