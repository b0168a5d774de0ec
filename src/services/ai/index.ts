export * from './model';
export * from './provider';
