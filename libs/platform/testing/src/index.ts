export * from './database';
export * from './kafka';
export * from './net';
export * from './child-service';
export * from './webhook-receiver';
export * from './pdf';
export * from './otlp-receiver';
export * from './tcp-proxy';
