export * from './topics';
export * from './validation';
export * from './envelope';
export * from './events/catalog';
export * from './events/audit-record';
export * from './events/audit-event';
export * from './events/policy-events';
export * from './rpc/patterns';
