export * from './api';
export * from './clients';
export * from './credentials';
export * from './links';
export * from './oauth';
export * from './schemas';
