export * from './create';
export * from './csv';
export * from './list';
export * from './row';
export * from './schemas';
