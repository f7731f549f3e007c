export * from './ids';
export * from './risk-score';
