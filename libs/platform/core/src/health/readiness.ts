export type ReadinessCheck = () => Promise<boolean>;

/**
 * What a service depends on to do its work. /health/ready answers 200 only while every check
 * passes and the service is not shutting down.
 */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();
  private shuttingDown = false;

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  async evaluate(timeoutMs = 2000): Promise<{ ready: boolean; checks: Record<string, 'up' | 'down'> }> {
    const checks: Record<string, 'up' | 'down'> = {};
    await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        });
        const ok = await Promise.race([check().catch(() => false), timedOut]);
        clearTimeout(timer);
        checks[name] = ok ? 'up' : 'down';
      }),
    );
    const ready = !this.shuttingDown && Object.values(checks).every((c) => c === 'up');
    return { ready, checks };
  }
}
