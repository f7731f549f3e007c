export * from './bus';
export * from './memory-bus';
export * from './kafka-bus';
export * from './outbox';
export * from './consumer';
export * from './messaging.module';
export * from './metrics';
export * from './policy-follower';
