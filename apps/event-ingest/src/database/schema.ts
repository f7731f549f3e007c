/** event-ingest owns this schema and nothing outside it. */
export const EVENT_INGEST_SCHEMA = 'event_ingest';
