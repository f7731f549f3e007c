import 'reflect-metadata';
import { runDatabaseCommand } from '@vigil/database';
import { runServiceMain } from '@vigil/platform';
import { eventIngestDatabase } from './database/event-ingest.database';
import { eventIngestService } from './event-ingest.service-definition';

// `node dist/main.js migrate` / `bootstrap-roles`: the database commands (docs/operations.md#database-roles).
if (!runDatabaseCommand(eventIngestDatabase)) void runServiceMain(eventIngestService);
