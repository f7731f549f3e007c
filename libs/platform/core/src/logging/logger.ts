import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { CommonConfig } from '../config/config';
import { currentCorrelationId } from './correlation';

export type { Logger } from 'pino';

/** Paths that must never reach a log line. */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'access_token',
  'refresh_token',
  'client_secret',
  '*.client_secret',
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** `LOG_FORMAT`: `auto` is human-readable lines on a terminal and JSON lines otherwise. */
export type LogFormat = CommonConfig['LOG_FORMAT'];
export type ResolvedLogFormat = Exclude<LogFormat, 'auto'>;

/** What `auto` means for this process: pretty only when stdout is a terminal. */
export function resolveLogFormat(format: LogFormat = 'auto', stdoutIsTty = Boolean(process.stdout.isTTY)): ResolvedLogFormat {
  if (format === 'auto') return stdoutIsTty ? 'pretty' : 'json';
  return format;
}

// One destination per format for the whole process: the standalone launcher runs five services,
// each with its own logger, and their lines must come out in the order they were written.
let jsonDestination: DestinationStream | undefined;
let prettyDestination: DestinationStream | undefined;

/**
 * Human-readable lines, formatted in this thread and written synchronously: no worker-thread
 * transport (resolved by module name, which a bundled app may not manage), and a start-up banner
 * written right after a log line appears after it.
 */
function prettyStream(): DestinationStream {
  const prettify = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,context',
    messageFormat: '[{service}] {msg}',
    singleLine: true,
  });
  return { write: (line: string) => void process.stdout.write(prettify(line)) };
}

/**
 * One entry per line, with the service name and the current correlation id: JSON (for log
 * collectors) or, on a terminal, human-readable (see resolveLogFormat).
 */
export function createLogger(service: string, level: string, format: LogFormat = 'auto'): Logger {
  const destination =
    resolveLogFormat(format) === 'pretty'
      ? (prettyDestination ??= prettyStream())
      : (jsonDestination ??= pino.destination({ dest: 1, sync: false }));
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const correlationId = currentCorrelationId();
        return correlationId ? { correlation_id: correlationId } : {};
      },
    },
    destination,
  );
}

/**
 * Contexts of NestJS's own start-up chatter: one line per module, controller and route (about 140
 * for the standalone system), and "starting"/"started" lines our "service started" line repeats.
 * They are logged at debug level (LOG_LEVEL=debug shows them).
 */
const FRAMEWORK_START_CONTEXTS = new Set(['RoutesResolver', 'RouterExplorer', 'InstanceLoader', 'NestFactory', 'NestApplication', 'NestMicroservice']);

/** Routes Nest's own logging into the structured logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    if (context && FRAMEWORK_START_CONTEXTS.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string) {
    this.logger.fatal({ context }, String(message));
  }
}
