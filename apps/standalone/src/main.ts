import 'reflect-metadata';
import { ConfigError, createLogger, installShutdown, StartRefused } from '@vigil/platform';
import { startSystem } from './standalone';

async function main() {
  const logger = createLogger('standalone', process.env.LOG_LEVEL ?? 'info');
  try {
    const system = await startSystem(process.env);
    installShutdown([system], logger);
  } catch (error) {
    if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else if (error instanceof StartRefused) process.stderr.write(`standalone: refusing to start: ${error.message}\n`);
    else logger.fatal({ err: error }, 'failed to start');
    process.exit(1);
  }
}

void main();
