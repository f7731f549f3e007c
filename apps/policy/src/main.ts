import 'reflect-metadata';
import { runDatabaseCommand } from '@vigil/database';
import { runServiceMain } from '@vigil/platform';
import { policyDatabase } from './database/policy.database';
import { policyService } from './policy.service-definition';

// `node dist/main.js migrate` / `bootstrap-roles`: the database commands (docs/operations.md#database-roles).
if (!runDatabaseCommand(policyDatabase)) void runServiceMain(policyService);
