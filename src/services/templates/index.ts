export * from './crud';
export * from './generate';
export * from './schemas';
