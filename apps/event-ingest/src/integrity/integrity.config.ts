import { encryptionConfigSpec, env } from '@vigil/platform';

/** The verifiable event log (docs/integrity.md, docs/configuration.md#event-ingest). */
export const integrityConfigSpec = {
  ...encryptionConfigSpec,
  /**
   * Keep the verifiable log: leaf hashes at ingest, the Merkle tree and signed checkpoints. On by
   * default; off only for benchmarks that compare against it (events stored while off get their
   * leaves later, when it is on again).
   */
  INTEGRITY_LOG: env.bool({ default: true }),
  /** Longest time between checkpoints while events arrive (at most 10 s). */
  INTEGRITY_CHECKPOINT_INTERVAL_MS: env.int({ min: 100, max: 10_000, default: 10_000 }),
  /** Most events between two checkpoints (at most 10,000). */
  INTEGRITY_CHECKPOINT_MAX_EVENTS: env.int({ min: 1, max: 10_000, default: 10_000 }),
  /** Days a checkpoint signing key is used before a new one replaces it; 0 rotates only on demand. */
  INTEGRITY_KEY_ROTATION_DAYS: env.int({ min: 0, max: 3650, default: 90 }),
  /** Largest number of leaves the tree builder appends in one transaction. */
  INTEGRITY_BUILD_BATCH: env.int({ min: 256, max: 100_000, default: 10_000 }),
  /** Events a verification job checks per step (its progress moves by this much). */
  INTEGRITY_VERIFY_BATCH: env.int({ min: 100, max: 100_000, default: 5000 }),
};
