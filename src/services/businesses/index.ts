export * from './acting';
export * from './invitations';
export * from './schemas';
export * from './settings';
export * from './teammates';
