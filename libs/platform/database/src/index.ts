export * from './commit-hooks';
export * from './data-source';
export * from './event-store';
export * from './database.module';
