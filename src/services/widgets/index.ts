export * from './cache';
export * from './data';
export * from './examples';
