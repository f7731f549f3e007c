export * from './tracing.config';
export * from './tracing';
export * from './spans';
export * from './context-manager';
