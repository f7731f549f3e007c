import { Command, CommanderError, Option } from 'commander';
import { registerAlertCommands } from './alerts/alerts.commands.ts';
import { registerAuthCommands } from './auth/auth.commands.ts';
import type { Runtime } from './context.ts';
import { CliError, ExitCode } from './errors.ts';
import { registerEventCommands } from './events/events.commands.ts';
import { registerPolicyCommands } from './policies/policies.commands.ts';
import { registerReportCommands } from './reports/reports.commands.ts';

export const DEFAULT_URL = 'http://localhost:3000';

export function buildProgram(runtime: Runtime): Command {
  const program = new Command('vigil')
    .description('Vigil on the command line: events, alerts, reports and policies as code, over the Vigil HTTP API')
    .version(runtime.version, '-V, --version')
    .addOption(new Option('--url <url>', 'Vigil address (env VIGIL_URL)').default(runtime.env.VIGIL_URL || DEFAULT_URL))
    .addOption(new Option('--output <format>', 'json or text (default: text on a terminal, json when piped)').choices(['json', 'text']))
    .showHelpAfterError('(vigil --help shows every command)')
    .exitOverride()
    .addHelpText(
      'after',
      '\nCredentials: VIGIL_API_KEY, or the tokens `vigil login` stored.\nExit codes: 0 ok, 1 other error, 2 usage or bad file, 3 refused by the API, 4 authentication, 10 changes pending (--detailed-exitcode).\nDocumentation: docs/cli.md',
    );
  registerAuthCommands(program, runtime);
  registerEventCommands(program, runtime);
  registerAlertCommands(program, runtime);
  registerReportCommands(program, runtime);
  registerPolicyCommands(program, runtime);
  return program;
}

/** Runs one command line (arguments after the program name) and answers the exit code. */
export async function run(args: string[], options: { version: string; env: NodeJS.ProcessEnv }): Promise<number> {
  const runtime: Runtime = { env: options.env, version: options.version };
  const program = buildProgram(runtime);
  try {
    await program.parseAsync(args, { from: 'user' });
    return runtime.context?.exitCode ?? ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed its message; help and version are not failures.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof CliError) {
      process.stderr.write(`vigil: ${error.message}\n`);
      return error.exitCode;
    }
    const detail = options.env.VIGIL_DEBUG ? (error as Error)?.stack : (error as Error)?.message;
    process.stderr.write(`vigil: ${detail ?? String(error)}\n`);
    return ExitCode.other;
  }
}
