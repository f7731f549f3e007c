import type { Command } from 'commander';
import { contextFor, type Runtime } from '../context.ts';
import { usageError } from '../errors.ts';
import { prompt, promptHidden, readStdin } from './prompt.ts';

export function registerAuthCommands(program: Command, runtime: Runtime): void {
  program
    .command('login')
    .description('Log in with e-mail and password; the tokens are stored for this --url (file mode 0600)')
    .option('--email <email>', 'the account e-mail (asked for on a terminal when left out)')
    .option('--password-stdin', 'read the password from stdin (for scripts; nothing is echoed or stored)')
    .action(async (options: { email?: string; passwordStdin?: boolean }, command: Command) => {
      const ctx = contextFor(command, runtime);
      const interactive = Boolean(process.stdin.isTTY);
      let email = options.email ?? ctx.env.VIGIL_EMAIL;
      if (!email) {
        if (!interactive || options.passwordStdin) throw usageError('--email is required when not on a terminal');
        email = await prompt('E-mail: ');
      }
      let password: string;
      if (options.passwordStdin) password = await readStdin();
      else if (interactive) password = await promptHidden('Password: ');
      else throw usageError('use --password-stdin to give the password when not on a terminal');
      if (!password) throw usageError('the password is empty');
      await ctx.client.login(email, password);
      if (ctx.output.json) ctx.output.document({ logged_in: true, url: ctx.client.baseUrl, email, credentials_file: ctx.store.file });
      else ctx.output.line(`Logged in to ${ctx.client.baseUrl} as ${email} (tokens in ${ctx.store.file})`);
    });

  program
    .command('logout')
    .description('End the session on the server (its tokens stop working) and forget the tokens stored for this --url')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextFor(command, runtime);
      const { removed, revoked } = await ctx.client.logout();
      if (ctx.output.json) ctx.output.document({ logged_out: removed, session_revoked: revoked, url: ctx.client.baseUrl });
      else if (!removed) ctx.output.line(`Not logged in to ${ctx.client.baseUrl}`);
      else ctx.output.line(revoked ? `Logged out of ${ctx.client.baseUrl}` : `Logged out of ${ctx.client.baseUrl} (the server could not be told; the session ends when it expires)`);
    });
}
