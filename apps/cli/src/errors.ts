/**
 * Exit codes CI can rely on (docs/cli.md#exit-codes). Every failure leaves the CLI as a CliError
 * carrying one of them; the entry point prints the message on stderr and exits with the code.
 */
export const ExitCode = {
  ok: 0,
  other: 1,
  usage: 2,
  refused: 3,
  auth: 4,
  /** `policies apply --dry-run --detailed-exitcode`: the plan has changes. */
  changesPending: 10,
  /** Ctrl-C at a prompt. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

// No parameter properties anywhere in this app: Node runs these sources by erasing types only.
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string) => new CliError(message, ExitCode.usage);
