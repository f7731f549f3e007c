import 'reflect-metadata';
import { runDatabaseCommand } from '@vigil/database';
import { runServiceMain } from '@vigil/platform';
import { authDatabase } from './database/auth.database';
import { authService } from './auth.service-definition';

// `node dist/main.js migrate` / `bootstrap-roles`: the database commands (docs/operations.md#database-roles).
if (!runDatabaseCommand(authDatabase)) void runServiceMain(authService);
