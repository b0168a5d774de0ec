export * from './grants';
export * from './settings';
