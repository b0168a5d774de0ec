export * from './reference';
export * from './users';
export * from './profiles';
export * from './connections';
export * from './shifts';
export * from './platform';
export * from './shifter-records';
export * from './teammate-invitations';
