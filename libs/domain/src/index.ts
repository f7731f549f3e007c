export * from './ids';
export * from './risk-score';
export * from './api-key-format';
