import { DomainException } from '@vigil/platform';
import { EventsApiErrorCode } from '../event-filters';

/**
 * Open streams per credential on this replica (spec: 10 concurrent connections). acquire()
 * refuses the one over the limit with 429; the returned release is idempotent.
 */
export class StreamLimits {
  private readonly open = new Map<string, number>();

  constructor(private readonly perCredential: number) {}

  acquire(credentialId: string): () => void {
    const current = this.open.get(credentialId) ?? 0;
    if (current >= this.perCredential) {
      throw new DomainException(
        429,
        EventsApiErrorCode.TooManyStreams,
        `This credential already has ${current} open event streams; at most ${this.perCredential} may be open at once.`,
        undefined,
        { 'Retry-After': '5' },
      );
    }
    this.open.set(credentialId, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(credentialId) ?? 1) - 1;
      if (left <= 0) this.open.delete(credentialId);
      else this.open.set(credentialId, left);
    };
  }

  count(credentialId: string): number {
    return this.open.get(credentialId) ?? 0;
  }
}
