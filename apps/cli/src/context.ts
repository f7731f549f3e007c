import type { Command } from 'commander';
import { CredentialStore } from './auth/credentials.ts';
import { ApiClient } from './http/api-client.ts';
import { Output, type OutputMode } from './output/output.ts';
import { ExitCode, usageError } from './errors.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface GlobalOptions {
  url: string;
  output?: string;
}

/** What every command gets: the API client, the output, the credential store. */
export interface Context {
  client: ApiClient;
  output: Output;
  store: CredentialStore;
  env: NodeJS.ProcessEnv;
  /** The process exits with this when the command returns (a command may raise it, e.g. to 10). */
  exitCode: ExitCode;
}

export interface Runtime {
  env: NodeJS.ProcessEnv;
  version: string;
  /** Set by the first command that builds its context, so the caller can read `exitCode`. */
  context?: Context;
}

export function contextFor(command: Command, runtime: Runtime): Context {
  const options = command.optsWithGlobals() as GlobalOptions;
  let mode: OutputMode;
  if (options.output === undefined) mode = process.stdout.isTTY ? 'text' : 'json';
  else if (options.output === 'json' || options.output === 'text') mode = options.output;
  else throw usageError(`--output must be json or text, not ${JSON.stringify(options.output)}`);
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw usageError(`--url must be an address such as http://localhost:3000, not ${JSON.stringify(options.url)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError('--url must start with http:// or https://');
  const output = new Output(mode);
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    output.notice(`vigil: warning: ${url.host} is reached over plain http: passwords and tokens cross the network unencrypted (use https://)`);
  }
  const store = new CredentialStore(runtime.env);
  const client = new ApiClient({ baseUrl: url.origin + url.pathname, apiKey: runtime.env.VIGIL_API_KEY, store, version: runtime.version });
  const context: Context = { client, output, store, env: runtime.env, exitCode: ExitCode.ok };
  runtime.context = context;
  return context;
}
