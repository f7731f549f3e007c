import { env } from '@vigil/platform';

export const eventIngestConfigSpec = {
  /** Largest batch of audit.ingest records stored in one transaction. */
  INGEST_BATCH_SIZE: env.int({ min: 1, max: 5000, default: 1000 }),
};
