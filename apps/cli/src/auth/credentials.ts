import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Tokens of one login, kept per server address so one machine can talk to several Vigils. */
export interface StoredSession {
  email: string;
  access_token: string;
  refresh_token: string;
  /** When the access token stops working (ISO 8601), from the login's `expires_in`. */
  expires_at: string;
}

interface CredentialsFile {
  version: 1;
  servers: Record<string, StoredSession>;
}

const LOCK_STALE_MS = 30_000;
const LOCK_WAIT_MS = 15_000;

/** `$VIGIL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/vigil`, else `~/.config/vigil`. */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.VIGIL_CONFIG_DIR) return env.VIGIL_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'vigil');
  return join(env.HOME || homedir(), '.config', 'vigil');
}

/** The key of a server in the file: its address without a trailing slash. */
export const serverKey = (url: string) => url.replace(/\/+$/, '');

/**
 * The credentials file (`credentials.json`, mode 0600, in a 0700 directory). It is only ever
 * replaced whole (write a private temporary file, then rename), so a reader never sees half of
 * it; refreshes take `credentials.lock` so two processes never spend the same refresh token (the
 * server treats a refresh token presented twice as stolen and revokes the whole session).
 */
export class CredentialStore {
  readonly dir: string;
  readonly file: string;
  private readonly lockFile: string;

  constructor(env: NodeJS.ProcessEnv) {
    this.dir = configDir(env);
    this.file = join(this.dir, 'credentials.json');
    this.lockFile = join(this.dir, 'credentials.lock');
  }

  get(url: string): StoredSession | undefined {
    return this.read().servers[serverKey(url)];
  }

  put(url: string, session: StoredSession): void {
    const content = this.read();
    content.servers[serverKey(url)] = session;
    this.write(content);
  }

  /** True when there was a session to remove. The file goes when its last session does. */
  remove(url: string): boolean {
    const content = this.read();
    const key = serverKey(url);
    if (!content.servers[key]) return false;
    delete content.servers[key];
    if (Object.keys(content.servers).length) this.write(content);
    else rmSync(this.file, { force: true });
    return true;
  }

  /** Runs `work` holding the lock file; a lock older than 30 s is taken as left by a dead process. */
  async withLock<T>(work: () => Promise<T>): Promise<T> {
    this.ensureDir();
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        closeSync(openSync(this.lockFile, 'wx', 0o600));
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        try {
          if (Date.now() - statSync(this.lockFile).mtimeMs > LOCK_STALE_MS) rmSync(this.lockFile, { force: true });
        } catch {
          /* released meanwhile */
        }
        if (Date.now() > deadline) throw new Error(`could not take ${this.lockFile} (another vigil process holds it)`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    try {
      return await work();
    } finally {
      rmSync(this.lockFile, { force: true });
    }
  }

  private read(): CredentialsFile {
    if (!existsSync(this.file)) return { version: 1, servers: {} };
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      throw new Error(`${this.file} is not valid JSON: remove it and log in again`);
    }
    const servers = (parsed as Partial<CredentialsFile>)?.servers;
    return { version: 1, servers: servers && typeof servers === 'object' ? servers : {} };
  }

  private write(content: CredentialsFile): void {
    this.ensureDir();
    const temporary = `${this.file}.${process.pid}.tmp`;
    rmSync(temporary, { force: true });
    // Created 0600 from the start (not chmod-ed after), so the tokens are never readable by others.
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(content, null, 2)}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.file);
  }

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // A directory that already existed keeps its mode from mkdir: tighten it (it holds only our files).
    if ((statSync(this.dir).mode & 0o077) !== 0) chmodSync(this.dir, 0o700);
  }
}
