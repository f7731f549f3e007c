export * from './cidr';
export * from './time-window';
export * from './pattern';
export * from './schemas';
export * from './types';
export * from './compile';
export * from './engine';
export * from './shape';
