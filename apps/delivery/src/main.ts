import 'reflect-metadata';
import { runDatabaseCommand } from '@vigil/database';
import { runServiceMain } from '@vigil/platform';
import { deliveryDatabase } from './database/delivery.database';
import { deliveryService } from './delivery.service-definition';

// `node dist/main.js migrate` / `bootstrap-roles`: the database commands (docs/operations.md#database-roles).
if (!runDatabaseCommand(deliveryDatabase)) void runServiceMain(deliveryService);
