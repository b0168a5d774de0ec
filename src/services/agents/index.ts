export * from './grants';
export * from './oauth-records';
export * from './settings';
