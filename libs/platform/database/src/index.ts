export * from './commit-hooks';
export * from './data-source';
export * from './event-store';
export * from './database.module';
export * from './append-only';
export * from './roles';
export * from './database-commands';
export * from './writer-fence';
