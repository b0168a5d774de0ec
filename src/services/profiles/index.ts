export * from './public';
