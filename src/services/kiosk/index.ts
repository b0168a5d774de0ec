export * from './punch';
export * from './sessions';
