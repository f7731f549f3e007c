import 'reflect-metadata';
import { ConfigError, createLogger, installShutdown, type LogFormat, StartRefused } from '@vigil/platform';
import { startSystem } from './standalone';

async function main() {
  try {
    const system = await startSystem(process.env);
    system.announce();
    installShutdown([system], system.logger);
  } catch (error) {
    if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else if (error instanceof StartRefused) process.stderr.write(`standalone: refusing to start: ${error.message}\n`);
    // The launcher's LOG_LEVEL and LOG_FORMAT were valid, or this is a ConfigError.
    else createLogger('standalone', process.env.LOG_LEVEL || 'info', (process.env.LOG_FORMAT || 'auto') as LogFormat).fatal({ err: error }, 'failed to start');
    process.exit(1);
  }
}

void main();
