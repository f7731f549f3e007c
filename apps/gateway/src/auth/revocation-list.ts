/**
 * Ids that must be refused until a given time: refresh-token families (`sid` of access tokens),
 * single access tokens (`jti`) and API keys. Entries go once the credential would have expired
 * anyway, so the list stays as small as the recent revocations.
 */
export class RevocationList {
  private readonly entries = new Map<string, number>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  add(kind: string, id: string, untilMs: number): void {
    if (untilMs <= this.now()) return;
    const key = `${kind}:${id}`;
    this.entries.set(key, Math.max(untilMs, this.entries.get(key) ?? 0));
  }

  has(kind: string, id: string | undefined): boolean {
    if (!id || !this.entries.size) return false;
    const until = this.entries.get(`${kind}:${id}`);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.entries.delete(`${kind}:${id}`);
    return false;
  }

  sweep(): void {
    const now = this.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, until] of this.entries) if (until <= now) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
